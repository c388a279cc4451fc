/**
 * Label values metrics may use, bounded: a series per label set lives for the
 * whole process, so a label whose value a client chooses (a tool name, a
 * method, an error code) could grow memory without end. Known values pass;
 * the rest fall into `other`, and each metric's label sets are capped.
 */

import { isErrorCode } from '../../../../shared/errors.js';

/** What an unknown or overflowing label value becomes. */
export const OTHER = 'other';

/** The methods a client may send that are counted by name (the rest: `other`). */
const METHODS = new Set([
  'initialize',
  'ping',
  'server/discover',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'skills/list',
  'skills/get',
  'logging/setLevel',
  'subscriptions/listen',
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
  'tasks/update',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/roots/list_changed',
  'GET',
  'DELETE',
]);

/** A method's label. */
export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : OTHER;
}

/**
 * An error code's label: our own closed set (shared/errors.ts) and numbers in
 * JSON-RPC's range pass; anything else is `other`.
 */
export function errorCodeLabel(code: string | number | undefined): string {
  if (code === undefined) return 'none';
  if (typeof code === 'number') return Number.isInteger(code) && code >= -32768 && code <= 32767 ? String(code) : OTHER;
  return isErrorCode(code) ? code : OTHER;
}

/** Caps the label sets one metric takes: past `max`, `bucket` stands in for new ones. */
export class LabelBudget {
  private readonly seen = new Set<string>();

  constructor(private readonly max: number) {}

  /** `key` (one label set, joined) if it fits, else undefined. */
  admit(key: string): boolean {
    if (this.seen.has(key)) return true;
    if (this.seen.size >= this.max) return false;
    this.seen.add(key);
    return true;
  }
}
