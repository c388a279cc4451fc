/**
 * The config file's text as the store reads it: read (a missing file is no
 * config yet), validated into a config with the raw entries edits are
 * compared against, or refused with a message naming the file and each
 * problem, or the line and column of an edit that does not parse yet.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { parseFailure } from './configPatch.js';
import { formatProblems, parseJsonText } from './load.js';
import { parseConfig, type SwitchboardConfig } from './schema.js';

/** A validated config read from disk, with the raw entries to compare edits against. */
export interface StoredConfig {
  config: SwitchboardConfig;
  /** Each backend's raw entry, as JSON text, by ID. */
  entries: Map<string, string>;
  /** The proxy section, as JSON text. */
  proxy: string;
}

/** The text at `path`, or undefined when there is no file; unreadable as `config_unreadable`. */
export async function readConfigText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SwitchboardError(ErrorCode.ConfigUnreadable, `cannot read ${path}: ${(error as Error).message}`, {
      path,
    });
  }
}

/** Validates the file's text; throws `config_invalid` naming each problem. */
export function parseStoredConfig(path: string, text: string): StoredConfig {
  const json = parseJsonText(text);
  const problems = json.problem ? [json.problem] : [];
  const parsed = problems.length === 0 ? parseConfig(json.value) : { problems };
  if (!parsed.config) {
    throw new SwitchboardError(ErrorCode.ConfigInvalid, formatProblems(path, parsed.problems).join('\n'), {
      path,
      problems: parsed.problems,
    });
  }
  const document = json.value as Record<string, unknown>;
  const servers = (document['mcpServers'] ?? {}) as Record<string, unknown>;
  return {
    config: parsed.config,
    entries: new Map(Object.entries(servers).map(([id, entry]) => [id, JSON.stringify(entry)])),
    proxy: JSON.stringify(document['proxy'] ?? {}),
  };
}

/** The refusal for a file whose text does not parse (the user is in the middle of an edit), if it does not. */
export function unparsedRefusal(path: string, text: string | undefined): SwitchboardError | undefined {
  const failure = text === undefined || text.trim() === '' ? undefined : parseFailure(text);
  if (!failure) return undefined;
  return new SwitchboardError(
    ErrorCode.ConfigUnparsed,
    `${basename(path)} has an edit that does not parse yet (line ${failure.line}, column ${failure.column}): fix it or undo it, then try again`,
    { path, line: failure.line, column: failure.column, reason: failure.reason },
  );
}
