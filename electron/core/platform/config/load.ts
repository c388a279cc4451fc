/**
 * Reading the config file: JSON with a located syntax error, then schema
 * validation. Every failure names the file and the field.
 */
import { readFile } from 'node:fs/promises';
import type { Result } from '../../../../shared/errors.js';
import { parseConfig, type ConfigProblem, type SwitchboardConfig } from './schema.js';

/** A loaded config file (`created`: it was missing and the empty config stands in). */
export interface LoadedConfig {
  config: SwitchboardConfig;
  path: string;
  created: boolean;
}

/** Why a config file was refused: every problem, each naming the field. */
export interface ConfigRefusal {
  path: string;
  problems: ConfigProblem[];
}

/** The result of loading a config file: a config, or the problems that refused it. */
export type LoadResult = Result<LoadedConfig, ConfigRefusal>;

/** Line and column (1-based) of a character offset in a text. */
function locate(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { line, column };
}

/** Parses JSON text; a syntax error is reported with its line and column. */
export function parseJsonText(text: string): { value?: unknown; problem?: ConfigProblem } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    if (position?.[1] !== undefined) {
      const { line, column } = locate(text, Number(position[1]));
      return { problem: { path: `(line ${line}, column ${column})`, message: `not valid JSON: ${message}` } };
    }
    return { problem: { path: '(file)', message: `not valid JSON: ${message}` } };
  }
}

/**
 * Loads and validates a config file. A missing file yields an empty config when
 * `allowMissing` is set (the default location on first start).
 */
export async function loadConfigFile(path: string, options: { allowMissing?: boolean } = {}): Promise<LoadResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && options.allowMissing) {
      const parsed = parseConfig({});
      if (!parsed.config) throw new Error('the empty config must be valid');
      return { ok: true, result: { config: parsed.config, path, created: true } };
    }
    const message = code === 'ENOENT' ? 'file not found' : `cannot read: ${(error as Error).message}`;
    return { ok: false, error: { path, problems: [{ path: '(file)', message }] } };
  }
  const json = parseJsonText(text);
  if (json.problem) return { ok: false, error: { path, problems: [json.problem] } };
  const parsed = parseConfig(json.value);
  if (!parsed.config) return { ok: false, error: { path, problems: parsed.problems } };
  return { ok: true, result: { config: parsed.config, path, created: false } };
}

/** Formats problems one per line, each naming the file and the field. */
export function formatProblems(path: string, problems: ConfigProblem[]): string[] {
  return problems.map((problem) => `${path}: ${problem.path}: ${problem.message}`);
}
