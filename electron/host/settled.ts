/**
 * A save that waits for a burst to settle: `soon()` (called on every move or
 * resize event) runs `save` once no call came for `delayMs`; `now()` (on close)
 * runs it at once, dropping the pending one. No Electron import, so it is
 * testable alone.
 */
export interface SettledSave {
  soon(): void;
  now(): void;
}

/** Wraps `save` so a burst of `soon()` calls ends in one call. */
export function settledSave(save: () => void, delayMs: number): SettledSave {
  let timer: NodeJS.Timeout | undefined;
  const now = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    save();
  };
  return {
    soon() {
      if (timer) clearTimeout(timer);
      timer = setTimeout(now, delayMs);
    },
    now,
  };
}
