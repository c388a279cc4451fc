/**
 * Which backends exist and where they came from, for registry adds and
 * updates: with a running core, its backend configs (each carrying its
 * `source`) are used and the config file is never opened; without one (the
 * CLI), the config file is read.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseBackend, type BackendConfig } from '../../../../../electron/core/platform/config/schema.js';
import {
  backendEntry,
  backendSources,
  replaceEntry,
  takenIds,
  type RunningBackends,
} from '../../../../../electron/core/install/entries/runningBackends.js';
import { tempDir } from '../../../../helpers/basics.js';

const SOURCE = { registry: 'http://registry.test', name: 'io.github.test/memory', version: '1.0.0', inputs: {} };
const entries: Record<string, Record<string, unknown>> = {
  memory: { command: 'npx', args: ['-y', 'memory@1.0.0'], source: SOURCE },
  local: { command: 'node', args: ['server.js'] },
};

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(() => dir.cleanup());

describe('with a running core', () => {
  const replaced: [string, Record<string, unknown>][] = [];
  const running: RunningBackends = {
    configs: () => Object.entries(entries).map(([id, entry]) => parseBackend(id, entry).backend as BackendConfig),
    entry: async (id) => entries[id],
    replace: async (id, entry) => void replaced.push([id, entry]),
  };
  // No file there: reading it would throw.
  const ctx = () => ({ configPath: join(dir.path, 'missing.json'), backends: running });

  it('reads the core’s configs, each with its source, never the file', async () => {
    expect(parseBackend('memory', entries['memory']).backend?.source).toEqual(SOURCE);
    expect(parseBackend('local', entries['local']).backend?.source).toBeUndefined();
    expect(await takenIds(ctx())).toEqual(new Set(['memory', 'local']));
    expect(await backendSources(ctx())).toEqual(new Map([['memory', SOURCE]]));
    expect(await backendEntry(ctx(), 'memory')).toBe(entries['memory']);
  });

  it('saves an update through the core', async () => {
    await replaceEntry(ctx(), 'memory', { command: 'npx' });
    expect(replaced).toEqual([['memory', { command: 'npx' }]]);
  });
});

describe('without a running core', () => {
  it('reads and writes the config file', async () => {
    const configPath = join(dir.path, 'config.json');
    await writeFile(configPath, JSON.stringify({ mcpServers: entries }));
    expect(await takenIds({ configPath })).toEqual(new Set(['memory', 'local']));
    expect(await backendSources({ configPath })).toEqual(new Map([['memory', SOURCE]]));
    await replaceEntry({ configPath }, 'local', { command: 'node', args: ['other.js'] });
    expect(await backendEntry({ configPath }, 'local')).toEqual({ command: 'node', args: ['other.js'] });
  });
});
