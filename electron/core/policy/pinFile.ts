/**
 * The pin file's format and the definition hash. The file holds only approved
 * pins (`{ "version": 1, "pins": { <backend>: { <tool>: { hash, definition,
 * pinnedAt } } } }`); anything else in it is refused rather than guessed at,
 * since a silently emptied pin set would re-trust every changed tool.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';
import type { PinnedDefinition, PinRecord } from './pinStore.js';

/** Keeps only the five pinned fields, as plain JSON (no aliasing of the caller's objects). */
export function pinnedFields(def: PinnedDefinition): PinnedDefinition {
  const { name, description, inputSchema, outputSchema, annotations } = def;
  return JSON.parse(JSON.stringify({ name, description, inputSchema, outputSchema, annotations })) as PinnedDefinition;
}

/** JSON with object keys sorted at every level, so key order never changes a hash. */
function canonical(value: unknown): string {
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : canonical(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 (hex) of the canonical JSON of name, description, input and output schema, and annotations. */
export function definitionHash(def: PinnedDefinition): string {
  return createHash('sha256')
    .update(canonical(pinnedFields(def)))
    .digest('hex');
}

const PinFile = z.object({
  version: z.literal(1),
  pins: z.record(
    z.string(),
    z.record(
      z.string(),
      z.object({
        hash: z.string().regex(/^[0-9a-f]{64}$/),
        definition: z.object({ name: z.string() }).loose(),
        pinnedAt: z.string(),
      }),
    ),
  ),
});

/** Parses the file's text into pins per backend; throws `config_invalid` naming the file. */
export function parsePins(text: string, file: string): Map<string, Map<string, PinRecord>> {
  let parsed: z.infer<typeof PinFile>;
  try {
    parsed = PinFile.parse(JSON.parse(text));
  } catch (error) {
    const reason = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message;
    throw new SwitchboardError(ErrorCode.ConfigInvalid, `${file}: not a valid pin file: ${reason}`, { path: file });
  }
  return new Map(
    Object.entries(parsed.pins).map(([backend, tools]) => [
      backend,
      new Map(
        Object.entries(tools).map(([tool, pin]) => [
          tool,
          { backend, tool, hash: pin.hash, definition: pin.definition as PinnedDefinition, pinnedAt: pin.pinnedAt },
        ]),
      ),
    ]),
  );
}

/** The file's text for a set of pins. */
export function formatPins(all: ReadonlyMap<string, ReadonlyMap<string, PinRecord>>): string {
  const pins: Record<string, Record<string, unknown>> = {};
  for (const [backend, tools] of all) {
    pins[backend] = Object.fromEntries(
      [...tools].map(([tool, pin]) => [tool, { hash: pin.hash, definition: pin.definition, pinnedAt: pin.pinnedAt }]),
    );
  }
  return `${JSON.stringify({ version: 1, pins }, null, 2)}\n`;
}
