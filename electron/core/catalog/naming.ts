/**
 * Exposed names for tools and prompts. Clients only accept
 * `^[A-Za-z0-9_-]{1,64}$` (Claude's and OpenAI's tool-name rules; a `:` or `.`
 * broke Claude Desktop and Copilot), so names are sanitised and, when too
 * long, shortened with a stable hash. Routing never parses these names back:
 * the catalog keeps a lookup table from exposed to original.
 */
import { createHash } from 'node:crypto';

/** What clients accept as a tool or prompt name. */
export const CLIENT_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Longest name clients accept. */
export const MAX_NAME_LENGTH = 64;

const HASH_LENGTH = 8;

/** Short stable hash of a backend's original item name. */
export function stableHash(backendId: string, original: string): string {
  return createHash('sha256').update(`${backendId}\u0000${original}`).digest('hex').slice(0, HASH_LENGTH);
}

/**
 * The exposed name of an item: `<prefix><separator><name>`, or the bare name
 * when the prefix is empty. Characters outside `[A-Za-z0-9_-]` become `_`; a
 * result longer than `maxLength` keeps its head and ends in `_<hash>`.
 */
export function exposedName(
  backendId: string,
  prefix: string,
  separator: string,
  original: string,
  maxLength = MAX_NAME_LENGTH,
): string {
  const joined = prefix === '' ? original : `${prefix}${separator}${original}`;
  const sanitised = joined.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
  if (sanitised.length <= maxLength) return sanitised;
  const hash = stableHash(backendId, original);
  return `${sanitised.slice(0, maxLength - HASH_LENGTH - 1)}_${hash}`;
}

/**
 * A catalog name made to fit a client's shorter budget (see the profile's
 * `maxNameLength`): unchanged when it fits, else its head and `_<hash>` of the
 * whole name, so it stays stable and distinct.
 */
export function fitName(name: string, maxLength: number): string {
  if (name.length <= maxLength) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, HASH_LENGTH);
  return `${name.slice(0, maxLength - HASH_LENGTH - 1)}_${hash}`;
}
