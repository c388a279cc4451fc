/**
 * jsdom has no layout: elements measure 0x0, so a virtualized list renders no
 * rows. Call inside a describe block to give every element a 600px size for
 * that block's tests.
 */
import { afterAll, beforeAll } from 'vitest';

const SIZED = ['clientHeight', 'clientWidth'] as const;

/** Gives elements a size for the enclosing describe block. */
export function withElementSize(pixels = 600): void {
  beforeAll(() => {
    for (const key of SIZED) {
      Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => pixels });
    }
  });
  afterAll(() => {
    for (const key of SIZED) delete (HTMLElement.prototype as unknown as Record<string, unknown>)[key];
  });
}
