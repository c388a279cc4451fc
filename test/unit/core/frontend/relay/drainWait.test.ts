// The shared drain wait: however many callers wait on a stalled wire, it holds one drain/close
// listener pair per response (Node's MaxListenersExceededWarning fired at eleven), and wakes them all.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { DrainWait } from '../../../../../electron/core/frontend/relay/drainWait.js';

describe('DrainWait', () => {
  it('holds one listener pair per stuck wire and wakes every caller on drain', () => {
    const wire = new EventEmitter();
    const wait = new DrainWait();
    let woken = 0;
    for (let i = 0; i < 500; i++) wait.add([wire], () => void woken++);
    expect(wire.listenerCount('drain')).toBe(1);
    expect(wire.listenerCount('close')).toBe(1);
    expect(wait.waiting).toBe(500);
    wire.emit('drain');
    expect(woken).toBe(500);
    expect(wire.listenerCount('drain')).toBe(0);
    expect(wire.listenerCount('close')).toBe(0);
    expect(wait.waiting).toBe(0);
  });

  it('wakes on close, and on the first of several wires, removing its listeners from all', () => {
    const [a, b] = [new EventEmitter(), new EventEmitter()];
    const wait = new DrainWait();
    let woken = 0;
    wait.add([a, b], () => void woken++);
    wait.add([b], () => void woken++);
    expect(b.listenerCount('drain')).toBe(1);
    b.emit('close');
    expect(woken).toBe(2);
    for (const wire of [a, b]) expect(wire.listenerCount('drain') + wire.listenerCount('close')).toBe(0);
    // Armed again for the next stall.
    wait.add([a], () => void woken++);
    a.emit('drain');
    expect(woken).toBe(3);
  });
});
