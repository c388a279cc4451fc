/**
 * The settled save of window bounds: once after a burst, at once on close.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { settledSave } from '../../../electron/host/settled.js';

afterEach(() => vi.useRealTimers());

describe('settledSave', () => {
  it('saves once after a burst of moves, and at once on close', () => {
    vi.useFakeTimers();
    const save = vi.fn();
    const saver = settledSave(save, 500);
    for (let i = 0; i < 200; i++) {
      saver.soon();
      vi.advanceTimersByTime(10);
    }
    expect(save).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(save).toHaveBeenCalledTimes(1);
    saver.soon();
    saver.now();
    expect(save).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1000);
    expect(save).toHaveBeenCalledTimes(2);
  });
});
