/**
 * The policy service the host calls: the Authorization view names where each
 * rule comes from, and the user's changes (a rule set or cleared, a server's
 * settings, which servers a profile sees, a profile's exposure) are in force
 * at once or refused with a specific error.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../../shared/errors.js';
import type { PolicyItemView } from '../../../../../shared/model/views.js';
import { AccessControl } from '../../../../../electron/core/catalog/policy/accessControl.js';
import type { PinChange, PinStore } from '../../../../../electron/core/catalog/policy/pinStore.js';
import { PolicySchema } from '../../../../../electron/core/platform/config/policyConfig.js';
import { CorePolicyService } from '../../../../../electron/core/catalog/policy/policyService.js';
import { twoBackendCatalog } from '../../../../helpers/policyCatalog.js';

const catalog = twoBackendCatalog();

function service(section: unknown, pinChanges: PinChange[] = []) {
  const access = new AccessControl(PolicySchema.parse(section), {
    policyChanged: () => undefined,
    clientRevoked: () => undefined,
    approvalsChanged: () => undefined,
  });
  const policy = new CorePolicyService({
    access,
    catalog: () => catalog,
    backendConfigs: () => [{ id: 'gh' }, { id: 'fs' }],
    pins: () => ({ changes: () => pinChanges }) as unknown as PinStore,
    withheld: (backend, kind, original) =>
      kind === 'tools' && pinChanges.some((change) => change.backend === backend && change.tool === original),
    catalogChanged: () => {},
  });
  return { access, policy };
}

function item(items: PolicyItemView[], backendId: string, original: string): PolicyItemView | undefined {
  return items.find((entry) => entry.backendId === backendId && entry.original === original);
}

describe('PolicyService.view', () => {
  it('lists every item of every kind with its rule and where the rule comes from', () => {
    const { policy } = service({
      backends: { gh: { defaultRule: 'deny', tools: { search: 'ask' } } },
      clients: { cursor: { name: 'Cursor', items: { gh: { tools: { search: 'allow' } } } } },
    });
    const everyone = policy.authorizationView();
    expect(everyone.profile).toBe('*');
    expect(everyone.items.map((entry) => entry.kind).sort()).toEqual(
      ['prompts', 'resourceTemplates', 'resources', 'tools', 'tools', 'tools'].sort(),
    );
    expect(item(everyone.items, 'gh', 'search')).toMatchObject({ rule: 'ask', source: 'item' });
    expect(item(everyone.items, 'gh', 'summarize')).toMatchObject({ rule: 'deny', source: 'backend' });
    expect(item(everyone.items, 'fs', 'read')).toMatchObject({ rule: 'allow', source: 'default' });
    const cursor = policy.authorizationView('cursor');
    expect(cursor.profile).toBe('cursor');
    expect(item(cursor.items, 'gh', 'search')).toMatchObject({ rule: 'allow', source: 'client' });
  });

  it("shows servers' settings, a profile's hidden servers and withheld tools", () => {
    const change = { backend: 'gh', tool: 'search' } as PinChange;
    const { policy } = service(
      { backends: { fs: { enabled: false, capture: true } }, clients: { zed: { name: 'Zed', backends: ['gh'] } } },
      [change],
    );
    const zed = policy.authorizationView('zed');
    expect(zed.backends).toEqual([
      { id: 'gh', enabled: true, defaultRule: 'allow', pinning: true, capture: false, visible: true },
      { id: 'fs', enabled: false, defaultRule: 'allow', pinning: true, capture: true, visible: false },
    ]);
    expect(item(zed.items, 'fs', 'read')).toMatchObject({ rule: 'deny', source: 'backend' });
    expect(item(zed.items, 'gh', 'search')?.withheld).toBe(true);
    expect(item(zed.items, 'gh', 'create_issue_comment')?.withheld).toBe(false);
  });

  it('refuses an unknown profile by name', () => {
    const { policy } = service({});
    expect(() => policy.authorizationView('nobody')).toThrow(
      expect.objectContaining({ code: ErrorCode.UnknownClient }),
    );
  });
});

describe('PolicyService changes', () => {
  it('sets and clears a rule for everyone and for one profile', async () => {
    const { access, policy } = service({ clients: { cursor: { name: 'Cursor' } } });
    await policy.setRule('gh', 'tools', 'search', 'deny', '*');
    await policy.setRule('gh', 'tools', 'search', 'ask', 'cursor');
    expect(access.engine.decide('local', 'tools', 'gh', 'search')).toEqual({ rule: 'deny', source: 'item' });
    expect(access.engine.decide('cursor', 'tools', 'gh', 'search')).toEqual({ rule: 'ask', source: 'clientItem' });
    await policy.setRule('gh', 'tools', 'search', null, 'cursor');
    expect(access.engine.decide('cursor', 'tools', 'gh', 'search')).toEqual({ rule: 'deny', source: 'item' });
    await policy.setRule('gh', 'tools', 'search', null);
    expect(access.engine.decide('local', 'tools', 'gh', 'search').source).toBe('globalDefault');
    await expect(policy.setRule('gh', 'tools', 'search', null, 'nobody')).rejects.toMatchObject({
      code: ErrorCode.UnknownClient,
    });
  });

  it("changes a server's settings for everyone, leaving the unnamed ones", async () => {
    const { access, policy } = service({ backends: { gh: { pinning: false } } });
    await policy.setBackend({ backendId: 'gh', enabled: false, capture: true });
    expect(access.policy.backends['gh']).toEqual({ enabled: false, capture: true, pinning: false });
    await policy.setBackend({ backendId: 'gh', profile: '*', enabled: true, defaultRule: 'deny' });
    expect(access.policy.backends['gh']).toMatchObject({ enabled: true, defaultRule: 'deny' });
  });

  it('hides and shows a server for one profile, keeping config order', async () => {
    const { access, policy } = service({ clients: { zed: { name: 'Zed' } } });
    await policy.setBackend({ backendId: 'gh', profile: 'zed', visible: false });
    expect(access.policy.clients['zed']?.backends).toEqual(['fs']);
    await policy.setBackend({ backendId: 'gh', profile: 'zed', visible: true });
    expect(access.policy.clients['zed']?.backends).toEqual(['gh', 'fs']);
    await expect(policy.setBackend({ backendId: 'gh', profile: 'zed', enabled: false })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('visible'),
    });
    await expect(policy.setBackend({ backendId: 'gh', profile: 'nobody', visible: true })).rejects.toMatchObject({
      code: ErrorCode.UnknownClient,
    });
  });

  it("sets and clears a profile's exposure", async () => {
    const { access, policy } = service({ clients: { zed: { name: 'Zed' } } });
    await policy.setExposure('zed', 'search');
    expect(access.policy.clients['zed']?.exposure).toBe('search');
    await policy.setExposure('zed', null);
    expect(access.policy.clients['zed']).toEqual({ name: 'Zed' });
    await expect(policy.setExposure('nobody', 'all')).rejects.toMatchObject({ code: ErrorCode.UnknownClient });
  });
});
