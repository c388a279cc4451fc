/** Which values count as secrets during import, and what replaces them. */
import { describe, expect, it, vi } from 'vitest';
import { backendIdFor, normalizeEntry, sameServer } from '../../../../../electron/core/install/clientApps/normalize.js';
import {
  environmentReferenceSink,
  looksSecret,
  secretSinkFor,
} from '../../../../../electron/core/install/clientApps/secrets.js';
import type { SecretStore } from '../../../../../electron/core/platform/secrets/secretStore.js';

describe('secret detection', () => {
  it('by name or by the shape of the value; references are not secrets', () => {
    expect(looksSecret('env', 'GITHUB_TOKEN', 'abc')).toBe(true);
    expect(looksSecret('env', 'OPENAI_API_KEY', 'x')).toBe(true);
    expect(looksSecret('env', 'DB_PASSWORD', 'x')).toBe(true);
    expect(looksSecret('env', 'PATH', '/usr/bin')).toBe(false);
    expect(looksSecret('env', 'LOG_LEVEL', 'debug')).toBe(false);
    expect(looksSecret('env', 'SOMETHING', 'ghp_0123456789')).toBe(true);
    expect(looksSecret('env', 'GITHUB_TOKEN', '${GITHUB_TOKEN}')).toBe(false);
    expect(looksSecret('headers', 'Authorization', 'Bearer abc')).toBe(true);
    expect(looksSecret('headers', 'Authorization', 'Bearer ${TOKEN}')).toBe(false);
    expect(looksSecret('headers', 'X-Api-Key', 'k')).toBe(true);
    expect(looksSecret('headers', 'Accept', 'application/json')).toBe(false);
  });

  it('the interim sink writes ${VAR} references and says whether they resolve', async () => {
    const sink = environmentReferenceSink({ GITHUB_TOKEN: 'abc' });
    expect(await sink.keep({ backendId: 'gh', field: 'env', name: 'GITHUB_TOKEN', value: 'abc' })).toEqual({
      replacement: '${GITHUB_TOKEN}',
      reference: '${GITHUB_TOKEN}',
      resolves: true,
    });
    expect(
      await sink.keep({ backendId: 'my-docs', field: 'headers', name: 'Authorization', value: 'Bearer s3' }),
    ).toEqual({
      replacement: 'Bearer ${MY_DOCS_AUTHORIZATION}',
      reference: '${MY_DOCS_AUTHORIZATION}',
      resolves: false,
    });
  });
});

describe('normalizing client entries', () => {
  it('maps each client spelling to config.json’s', () => {
    expect(normalizeEntry({ serverUrl: 'https://a/mcp' }, '/h').entry).toEqual({ url: 'https://a/mcp' });
    expect(normalizeEntry({ type: 'sse', url: 'https://a/sse' }, '/h').entry).toEqual({
      url: 'https://a/sse',
      type: 'sse',
    });
    expect(normalizeEntry({ command: 'x', env: { A: '${env:A}' }, args: ['${userHome}/f'] }, '/h').entry).toEqual({
      command: 'x',
      args: ['/h/f'],
      env: { A: '${A}' },
    });
    expect(
      normalizeEntry({ url: 'https://c/mcp', env_http_headers: { 'X-Key': 'KEY_VAR' }, enabled: false }, '/h').entry,
    ).toEqual({ url: 'https://c/mcp', headers: { 'X-Key': '${KEY_VAR}' }, enabled: false });
    expect(normalizeEntry({ command: 'x', args: ['${workspaceFolder}'] }, '/h').skipReason).toContain(
      'workspaceFolder',
    );
    expect(normalizeEntry({ alwaysAllow: [] }, '/h').skipReason).toBe('has neither a command nor a URL');
  });

  it('makes valid backend IDs and compares servers by what they start', () => {
    expect(backendIdFor('github')).toBe('github');
    expect(backendIdFor('my server.v2')).toBe('my-server-v2');
    expect(backendIdFor('1password')).toBe('s-1password');
    expect(sameServer({ command: 'a', args: ['b'] }, { command: 'a', args: ['b'], env: { X: '1' } })).toBe(true);
    expect(sameServer({ url: 'https://x/mcp/' }, { url: 'https://x/mcp' })).toBe(true);
    expect(sameServer({ command: 'a' }, { url: 'a' })).toBe(false);
  });
});

describe('secretSinkFor', () => {
  const store = (available: boolean): SecretStore =>
    ({
      status: async () => ({ available, backend: 'fake', ...(available ? {} : { reason: 'locked' }) }),
      set: vi.fn(async () => undefined),
    }) as unknown as SecretStore;
  const request = { backendId: 'gh', field: 'env' as const, name: 'GITHUB_TOKEN', value: 'ghp_value' };

  it('uses the keychain when it is available', async () => {
    const { sink, status } = await secretSinkFor(store(true), {});
    expect(status.available).toBe(true);
    expect(await sink.keep(request)).toMatchObject({ replacement: { secret: 'gh.GITHUB_TOKEN' } });
  });

  it('falls back to ${VAR} references, saying why', async () => {
    for (const keychain of [store(false), undefined]) {
      const { sink, status } = await secretSinkFor(keychain, { GITHUB_TOKEN: 'ghp_value' });
      expect(status.available).toBe(false);
      expect(status.reason).toBeTruthy();
      expect(await sink.keep(request)).toMatchObject({ replacement: '${GITHUB_TOKEN}', resolves: true });
    }
  });
});
