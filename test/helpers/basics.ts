/**
 * What tests of every tier share without loading the core: where the repository, its fixture
 * servers and the real MCP servers are, a scratch folder, a validated config. Kept apart from
 * harness.ts (which starts the core and its endpoint, and so imports them, the SDK clients of
 * both eras and everything under them) because a unit test that only needs a temporary folder
 * or a config would otherwise load the whole core: in the unit tier's shared module graph that
 * was several seconds of its import time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseConfig, type SwitchboardConfig } from '../../electron/core/platform/index.js';

/** Absolute path of the repository. */
export const ROOT = resolve(import.meta.dirname, '../..');
/** Absolute path of a fixture server. */
export const fixture = (name: string): string => join(ROOT, 'test/fixtures/servers', name);
/** server-everything's entry point (run with node, not npx: no network here). */
export const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
/** server-memory's entry point. */
export const MEMORY = join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

/** A stdio backend entry running `node <script> ...args`. */
export function nodeServer(
  script: string,
  args: string[] = [],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { command: process.execPath, args: [script, ...args], ...extra };
}

/** Validates a raw config object, failing loudly if it is invalid. */
export function makeConfig(raw: Record<string, unknown>): SwitchboardConfig {
  const { config, problems } = parseConfig(raw);
  if (!config) throw new Error(`bad test config: ${JSON.stringify(problems)}`);
  return config;
}

/** A temporary directory removed by the returned cleanup. */
export async function tempDir(): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'switchboard-test-'));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

/** The text of the first text block of a tool or prompt result. */
export function firstText(result: { content?: unknown }): string {
  const content = result.content as { type: string; text?: string }[] | undefined;
  const block = content?.find((item) => item.type === 'text');
  if (!block?.text) throw new Error(`no text block in ${JSON.stringify(result)}`);
  return block.text;
}
