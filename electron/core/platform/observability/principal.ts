/**
 * The principal's id as it may leave the process in a span: a SHA-256 digest,
 * shortened, so traces can group one principal's requests without naming it.
 */
import { createHash } from 'node:crypto';
import type { Principal } from './observability.js';

/** The first 16 hex digits of SHA-256 over `kind:id`. */
export function principalHash(principal: Principal): string {
  return createHash('sha256').update(`${principal.kind}:${principal.id}`).digest('hex').slice(0, 16);
}
