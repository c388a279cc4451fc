/**
 * The pin file's format and its records. The file holds only approved
 * pins (`{ "version": 1, "pins": { <backend>: { <tool>: { hash, definition,
 * pinnedAt } } } }`); anything else in it is refused rather than guessed at,
 * since a silently emptied pin set would re-trust every changed tool.
 */
import { z } from 'zod';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { PinnedDefinition } from '../definitionHash.js';

/** One pinned (approved) definition. */
export interface PinRecord {
  backend: string;
  /** The backend's original tool name. */
  tool: string;
  hash: string;
  definition: PinnedDefinition;
  pinnedAt: string;
}

const Pin = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  definition: z.object({ name: z.string() }).loose(),
  pinnedAt: z.string(),
});

const PinFile = z.object({
  version: z.literal(1),
  pins: z.record(z.string(), z.record(z.string(), Pin)),
});

/** One pin as replicas share it (JSON: hash, definition, pinnedAt). */
export function formatPin(pin: PinRecord): string {
  return JSON.stringify({ hash: pin.hash, definition: pin.definition, pinnedAt: pin.pinnedAt });
}

/** A shared pin's text, checked; throws `config_invalid` naming the tool. */
export function parsePin(backend: string, tool: string, text: string): PinRecord {
  const parsed = Pin.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new SwitchboardError(
      ErrorCode.ConfigInvalid,
      `the shared pin of ${backend}'s tool ${tool} is not valid: ${z.prettifyError(parsed.error)}`,
    );
  const { hash, definition, pinnedAt } = parsed.data;
  return { backend, tool, hash, definition: definition as PinnedDefinition, pinnedAt };
}

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
