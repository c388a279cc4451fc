/**
 * Small immutable helpers for React state held in a Set.
 */

/** A copy of `set` with `item` in it (`on`) or out of it. */
export function toggled<T>(set: ReadonlySet<T>, item: T, on: boolean): Set<T> {
  const next = new Set(set);
  if (on) next.add(item);
  else next.delete(item);
  return next;
}
