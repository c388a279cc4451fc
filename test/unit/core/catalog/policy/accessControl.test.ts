/**
 * Access control over a real config file and real client tokens: a request's
 * decision matches the client's view, policy changes are validated, patched
 * into the file as it is on disk and in force at once, and client profiles and
 * tokens are created, rotated and revoked with the core told each time.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../../shared/errors.js';
import { ConfigStore } from '../../../../../electron/core/platform/config/configStore.js';
import { AccessControl, type AccessControlHost } from '../../../../../electron/core/catalog/policy/accessControl.js';
import { ClientTokens } from '../../../../../electron/core/catalog/policy/clientTokens.js';
import { PolicySchema } from '../../../../../electron/core/platform/config/policyConfig.js';
import { tempDir } from '../../../../helpers/basics.js';
import { exposedOf, twoBackendCatalog } from '../../../../helpers/policyCatalog.js';

/** Hooks that record what the core was told. */
function recorder(): AccessControlHost & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    policyChanged: () => calls.push('policyChanged'),
    clientRevoked: (client) => calls.push(`revoked:${client}`),
    approvalsChanged: () => calls.push('approvalsChanged'),
  };
}

describe('AccessControl.authorize', () => {
  const catalog = twoBackendCatalog();
  const search = exposedOf(catalog.toolIndex, 'gh', 'search');
  const read = exposedOf(catalog.toolIndex, 'fs', 'read');

  it("answers with the item's rule, and deny for what the client cannot see", () => {
    const access = new AccessControl(
      PolicySchema.parse({
        backends: { gh: { tools: { search: 'ask' } } },
        clients: { zed: { name: 'Zed', backends: ['gh'] } },
      }),
      recorder(),
    );
    expect(access.authorize('local', catalog, 'tools', search)).toBe('ask');
    expect(access.authorize('local', catalog, 'tools', read)).toBe('allow');
    expect(access.authorize('zed', catalog, 'tools', read)).toBe('deny');
    expect(access.authorize('local', catalog, 'tools', 'no_such_tool')).toBe('deny');
    expect(access.authorize('local', catalog, 'resources', 'note://a')).toBe('deny');
    const resource = exposedOf(catalog.resourceIndex, 'gh', 'note://a');
    expect(access.authorize('local', catalog, 'resources', resource)).toBe('allow');
  });

  it('denies a withheld tool even where its rule allows it', () => {
    const access = new AccessControl(PolicySchema.parse({}), recorder(), {
      withheld: (_, kind, tool) => kind === 'tools' && tool === 'search',
    });
    expect(access.authorize('local', catalog, 'tools', search)).toBe('deny');
  });

  it('names the level that decided, for the request log: a rule, or hidden when no rule denied it', () => {
    const access = new AccessControl(
      PolicySchema.parse({
        backends: { gh: { tools: { search: 'ask' } } },
        clients: { zed: { name: 'Zed', backends: ['gh'] } },
      }),
      recorder(),
      { withheld: (_, kind, tool) => kind === 'tools' && tool === 'read' },
    );
    expect(access.decide('local', catalog, 'tools', search)).toEqual({ rule: 'ask', source: 'item' });
    expect(access.decide('zed', catalog, 'tools', read)).toEqual({ rule: 'deny', source: 'clientBackends' });
    expect(access.decide('local', catalog, 'tools', read)).toEqual({ rule: 'deny', source: 'hidden' });
    expect(access.decide('local', catalog, 'tools', 'no_such_tool')).toEqual({ rule: 'deny', source: 'hidden' });
  });
});

describe('AccessControl changes', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let path: string;
  let store: ConfigStore;
  let tokens: ClientTokens;
  let hooks: ReturnType<typeof recorder>;

  beforeEach(async () => {
    dir = await tempDir();
    path = join(dir.path, 'config.json');
    await writeFile(path, JSON.stringify({ mcpServers: { gh: { command: 'gh-mcp' } }, policy: {} }, null, 2));
    store = new ConfigStore(path, undefined, { stateDir: join(dir.path, 'state') });
    await store.load();
    tokens = new ClientTokens(join(dir.path, 'client-tokens.json'));
    await tokens.load();
    hooks = recorder();
  });
  afterEach(() => dir.cleanup());

  function access(): AccessControl {
    return new AccessControl(PolicySchema.parse({}), hooks, { store, tokens });
  }

  async function policyOnDisk(): Promise<Record<string, unknown>> {
    return (JSON.parse(await readFile(path, 'utf8')) as { policy: Record<string, unknown> }).policy;
  }

  it('writes only the rule it set, keeps a hand edit made meanwhile and applies at once', async () => {
    const control = access();
    const text = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    await writeFile(path, JSON.stringify({ ...text, policy: { exposure: 'search' } }, null, 2));
    await control.setRule('gh', 'tools', 'search', 'deny');
    expect(await policyOnDisk()).toEqual({ exposure: 'search', backends: { gh: { tools: { search: 'deny' } } } });
    expect(control.policy.backends['gh']?.tools?.['search']).toBe('deny');
    expect(control.policy.exposure).toBe('search');
    expect(hooks.calls).toEqual(['policyChanged']);
  });

  it('refuses ask for anything but a tool, and a change that does not validate, changing nothing', async () => {
    const control = access();
    await expect(control.setRule('gh', 'prompts', 'summarize', 'ask')).rejects.toMatchObject({
      code: ErrorCode.ConfigInvalid,
    });
    await expect(
      control.update((policy) => {
        policy.defaultRule = 'maybe' as never;
      }),
    ).rejects.toMatchObject({ code: ErrorCode.ConfigInvalid, message: expect.stringContaining('defaultRule') });
    expect(await policyOnDisk()).toEqual({});
    expect(control.policy.defaultRule).toBe('allow');
    expect(hooks.calls).toEqual([]);
  });

  it('sets a rule for one client profile only, refusing an unknown one', async () => {
    const control = access();
    await control.createProfile('cursor', { name: 'Cursor' });
    await control.setRule('gh', 'tools', 'search', 'deny', 'cursor');
    expect(control.engine.rule('cursor', 'tools', 'gh', 'search')).toBe('deny');
    expect(control.engine.rule('local', 'tools', 'gh', 'search')).toBe('allow');
    await expect(control.setRule('gh', 'tools', 'search', 'deny', 'nobody')).rejects.toMatchObject({
      code: ErrorCode.UnknownClient,
    });
  });

  it('creates a client with a token once, rotates it and revokes it', async () => {
    const control = access();
    const token = await control.createProfile('cursor', { name: 'Cursor' });
    expect(control.authenticate(token)).toBe('cursor');
    await expect(control.createProfile('cursor', { name: 'Again' })).rejects.toMatchObject({
      code: ErrorCode.DuplicateClient,
    });
    await expect(control.createProfile('local', { name: 'Local' })).rejects.toMatchObject({
      code: ErrorCode.DuplicateClient,
    });
    const rotated = await control.rotateToken('cursor');
    expect(rotated).not.toBe(token);
    expect(control.authenticate(token)).toBeUndefined();
    expect(control.authenticate(rotated)).toBe('cursor');
    await control.revokeProfile('cursor');
    expect(control.authenticate(rotated)).toBeUndefined();
    expect(control.policy.clients['cursor']).toEqual({ name: 'Cursor' });
    expect(hooks.calls.filter((call) => call.startsWith('revoked:'))).toEqual(['revoked:cursor', 'revoked:cursor']);
    const secret = (await readFile(join(dir.path, 'client-tokens.json'), 'utf8')) + (await readFile(path, 'utf8'));
    expect(secret).not.toContain(rotated);
  });

  it('knows a client another process just set up (profile and token) before the watcher would, and still refuses a wrong token', async () => {
    const control = access();
    // What `install` does from the CLI: its own store and token set, on the same files.
    const cli = new AccessControl(PolicySchema.parse({}), recorder(), {
      store: new ConfigStore(path, undefined, { stateDir: join(dir.path, 'state') }),
      tokens: new ClientTokens(join(dir.path, 'client-tokens.json')),
    });
    const token = await cli.createProfile('cursor', { name: 'Cursor' });
    expect(control.authenticate(token)).toBeUndefined(); // not in this instance's policy yet
    expect(await control.authenticateRechecking(token)).toBe('cursor');
    expect(control.policy.clients['cursor']).toEqual({ name: 'Cursor' });
    expect(await control.authenticateRechecking('not-a-token-of-anyone')).toBeUndefined();
  });

  it('says client tokens are unavailable without a token store', async () => {
    const control = new AccessControl(PolicySchema.parse({}), hooks);
    await expect(control.createProfile('cursor', { name: 'Cursor' })).rejects.toMatchObject({
      code: ErrorCode.ConfigInvalid,
      message: expect.stringContaining('client tokens'),
    });
    await control.update((policy) => {
      policy.defaultRule = 'deny';
    });
    expect(control.policy.defaultRule).toBe('deny');
  });
});
