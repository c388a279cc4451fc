import { describe, expect, it } from 'vitest';
import { parseBackend } from '../../../../../electron/core/platform/config/schema.js';
import {
  resolveValues,
  secretNames,
  unresolvedSecrets,
} from '../../../../../electron/core/platform/secrets/resolve.js';
import type { SecretStore } from '../../../../../electron/core/platform/secrets/secretStore.js';

/** A secret store in memory; `down` makes it act like an unreachable keychain. */
function memoryStore(values: Record<string, string>, down?: string): SecretStore {
  const map = new Map(Object.entries(values));
  const guard = (): void => {
    if (down) throw new Error(down);
  };
  return {
    get: async (name) => (guard(), map.get(name)),
    set: async (name, value) => void (guard(), map.set(name, value)),
    delete: async (name) => (guard(), map.delete(name)),
    list: async () => (guard(), [...map.keys()]),
    status: async () =>
      down ? { available: false, backend: 'memory', reason: down } : { available: true, backend: 'memory' },
  };
}

describe('secret references in the config', () => {
  it('accepts {"secret": NAME} in env and headers, and refuses other objects naming the field', () => {
    const stdio = parseBackend('gh', { command: 'x', env: { TOKEN: { secret: 'github-token' }, PLAIN: 'a' } });
    expect(stdio.backend && secretNames(stdio.backend)).toEqual(['github-token']);
    const remote = parseBackend('api', {
      url: 'https://example.com/mcp',
      headers: { Authorization: { secret: 'api' } },
    });
    expect(remote.problems).toEqual([]);
    const bad = parseBackend('gh', { command: 'x', env: { TOKEN: { secret: 'a', other: 1 } } });
    expect(bad.problems[0]?.path).toBe('mcpServers.gh.env.TOKEN');
    expect(parseBackend('gh', { command: 'x', env: { TOKEN: { secret: '' } } }).problems).not.toEqual([]);
  });

  it('resolves secrets and ${VAR} strings; a secret value is not expanded', async () => {
    const store = memoryStore({ tok: 'v-${HOME}' });
    const out = await resolveValues({ A: { secret: 'tok' }, B: '${X}-b' }, { X: 'x' }, store, 'mcpServers.s.env');
    expect(out).toEqual({ A: 'v-${HOME}', B: 'x-b' });
  });

  it('fails naming the field and the secret when it is missing or the keychain is down', async () => {
    const values = { A: { secret: 'tok' } };
    await expect(resolveValues(values, {}, memoryStore({}), 'f.env')).rejects.toThrow(
      'f.env.A: secret "tok" is not in the OS keychain',
    );
    await expect(resolveValues(values, {}, memoryStore({}, 'no bus'), 'f.env')).rejects.toThrow(
      'f.env.A: secret "tok" cannot be read: the OS keychain is not available: no bus',
    );
    await expect(resolveValues(values, {}, undefined, 'f.env')).rejects.toThrow('the OS keychain is not available');
  });

  it('lists unresolvable references for check-config', async () => {
    const { backend } = parseBackend('gh', { command: 'x', env: { A: { secret: 'here' }, B: { secret: 'gone' } } });
    if (!backend) throw new Error('invalid');
    expect(await unresolvedSecrets([backend], memoryStore({ here: '1' }))).toEqual([
      'mcpServers.gh.env.B: secret "gone" is not in the OS keychain',
    ]);
    expect(await unresolvedSecrets([backend], memoryStore({}, 'locked'))).toHaveLength(2);
  });
});
