import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '@modelcontextprotocol/server';
import { BoundedBus, listenContext } from '../../../../../electron/core/frontend/http/boundedBus.js';

/** A response whose client stopped reading (the fault a loopback socket cannot produce on demand). */
function blockedResponse() {
  const res = Object.assign(new EventEmitter(), { writableNeedDrain: true, destroyed: false }) as EventEmitter & {
    writableNeedDrain: boolean;
    destroyed: boolean;
    destroy(): void;
  };
  res.destroy = () => {
    res.destroyed = true;
    res.emit('close');
  };
  return res;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('BoundedBus', () => {
  it('holds one pending event per kind and URI while a stream cannot drain, and delivers them on drain', async () => {
    const bus = new BoundedBus(10_000);
    const res = blockedResponse();
    const seen: ServerEvent[] = [];
    listenContext.run({ res: res as unknown as ServerResponse, client: 'local', tools: '' }, () =>
      bus.subscribe((event) => seen.push(event)),
    );
    for (let i = 0; i < 1000; i++) bus.publish({ kind: 'resource_updated', uri: 'a://1' });
    bus.publish({ kind: 'tools_list_changed' });
    await tick();
    expect(seen).toEqual([]);
    expect(bus.dropped).toBe(999);
    res.writableNeedDrain = false;
    res.emit('drain');
    expect(seen.map((event) => event.kind)).toEqual(['resource_updated', 'tools_list_changed']);
    res.destroy();
  });

  it('ends a stream that stays blocked for stallMs', async () => {
    const bus = new BoundedBus(50);
    const res = blockedResponse();
    listenContext.run({ res: res as unknown as ServerResponse, client: 'local', tools: '' }, () =>
      bus.subscribe(() => undefined),
    );
    bus.publish({ kind: 'prompts_list_changed' });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(res.destroyed).toBe(true);
    expect(bus.stalled).toBe(1);
  });
});
