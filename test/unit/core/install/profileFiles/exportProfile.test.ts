/**
 * `profile export`: the profile's own fields, the policies of the servers it
 * uses, and (with servers) those servers, where every secret (keychain
 * references, secret-looking env and headers, secrets inside arguments and
 * URLs) is a named input and no secret value is anywhere in the text.
 */
import { describe, expect, it } from 'vitest';
import { exportProfile, profileFileText } from '../../../../../electron/core/install/profileFiles/exportProfile.js';
import { parseStoredConfig } from '../../../../../electron/core/platform/config/storedConfig.js';

const SECRETS = ['ghp_abcdefghijklmnop1234', 'sk-live-0123456789', 'hunter2pass', 'qs-key-999888'];

const config = {
  mcpServers: {
    github: {
      command: 'npx',
      args: ['-y', 'server-github', '--token', SECRETS[2]],
      env: { GITHUB_TOKEN: SECRETS[0], LOG_LEVEL: 'debug', FROM_KEYCHAIN: { secret: 'gh-extra' } },
      source: { registry: 'https://registry.modelcontextprotocol.io', name: 'io.github/github', version: '1.2.0' },
    },
    linear: {
      url: `https://mcp.example.com/mcp?api_key=${SECRETS[3]}`,
      headers: { Authorization: `Bearer ${SECRETS[1]}`, 'X-Team': 'core' },
    },
    other: { command: 'other-server' },
  },
  policy: {
    backends: { github: { defaultRule: 'deny', tools: { create_issue: 'ask' } }, other: { enabled: false } },
    clients: {
      cursor: {
        name: 'Cursor',
        backends: ['github', 'linear'],
        maxTools: 40,
        exposure: 'auto',
        items: { github: { tools: { delete_repo: 'deny' } } },
      },
    },
  },
};

const stored = () => parseStoredConfig('/tmp/config.json', JSON.stringify(config));

describe('exportProfile', () => {
  it('writes the profile and the policies of only the servers it uses', () => {
    const file = exportProfile(stored(), 'cursor', { now: new Date('2026-01-02T03:04:05Z') });
    expect(file.formatVersion).toBe(1);
    expect(file.profile).toEqual({ id: 'cursor', ...config.policy.clients.cursor });
    expect(file.backendPolicies).toEqual({ github: config.policy.backends.github });
    expect(file.servers).toBeUndefined();
    expect(file.inputs).toEqual({});
  });

  it('with servers, makes every secret a named input and no secret value reaches the text', () => {
    const file = exportProfile(stored(), 'cursor', { servers: true });
    const text = profileFileText(file);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    const github = file.servers?.['github'];
    expect(github?.env).toEqual({
      GITHUB_TOKEN: { input: 'github.GITHUB_TOKEN' },
      LOG_LEVEL: 'debug',
      FROM_KEYCHAIN: { input: 'gh-extra' },
    });
    expect(github?.args).toEqual(['-y', 'server-github', '--token', '${input:github.args3}']);
    expect(github?.source).toEqual(config.mcpServers.github.source);
    const linear = file.servers?.['linear'];
    expect(linear?.url).toBe('https://mcp.example.com/mcp?api_key=${input:linear.url}');
    expect(linear?.headers).toEqual({ Authorization: { input: 'linear.Authorization' }, 'X-Team': 'core' });
    expect(Object.keys(file.servers ?? {})).toEqual(['github', 'linear']);
    expect(Object.keys(file.inputs).sort()).toEqual(
      ['gh-extra', 'github.GITHUB_TOKEN', 'github.args3', 'linear.Authorization', 'linear.url'].sort(),
    );
    expect(file.inputs['github.GITHUB_TOKEN']).toEqual({ description: 'github: env.GITHUB_TOKEN', secret: true });
  });

  it('a profile without a servers list uses every server', () => {
    const own = structuredClone(config) as typeof config & { policy: { clients: Record<string, unknown> } };
    own.policy.clients['all'] = { name: 'All' };
    const file = exportProfile(parseStoredConfig('/tmp/c.json', JSON.stringify(own)), 'all', { servers: true });
    expect(Object.keys(file.servers ?? {})).toEqual(['github', 'linear', 'other']);
    expect(Object.keys(file.backendPolicies)).toEqual(['github', 'other']);
  });

  it('refuses an unknown profile, naming the ones there are', () => {
    expect(() => exportProfile(stored(), 'zed')).toThrow('no client profile "zed" (profiles: cursor)');
  });
});
