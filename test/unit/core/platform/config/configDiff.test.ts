/** A hand edit's effect per backend: an edit of a server's overrides alone rebuilds its catalog, never restarts it. */
import { describe, expect, it } from 'vitest';
import { diffBackends } from '../../../../../electron/core/platform/config/configDiff.js';
import { parseStoredConfig } from '../../../../../electron/core/platform/config/storedConfig.js';

const stored = (servers: Record<string, unknown>) =>
  parseStoredConfig('/c.json', JSON.stringify({ mcpServers: servers }));

describe('diffBackends', () => {
  const fs = { command: 'node', args: ['fs.js'] };
  const overrides = { tools: { read_file: { name: 'read_note' } } };

  it('reports a backend whose overrides alone changed as overridden, not changed', () => {
    const running = stored({ fs }).config.backends;
    const diff = diffBackends(running, stored({ fs: { ...fs, overrides } }));
    expect(diff.changed).toEqual([]);
    expect(diff.overridden.map((backend) => [backend.id, backend.overrides])).toEqual([['fs', overrides]]);
  });

  it('restarts a backend whose launch changed, whatever its overrides did', () => {
    const running = stored({ fs }).config.backends;
    const diff = diffBackends(running, stored({ fs: { ...fs, args: ['other.js'], overrides } }));
    expect(diff.changed.map((change) => change.id)).toEqual(['fs']);
    expect(diff.overridden).toEqual([]);
  });
});
