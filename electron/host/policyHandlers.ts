/**
 * The Authorization side of the contract: rules per item, backend and
 * profile; pending `ask` approvals; changed tool definitions; client profiles
 * and their tokens (a token is returned once, by create and rotate only).
 */
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import { POLICY_KINDS, type PolicyItemView, type PolicyKind, type PolicyView } from '../../shared/model/views.js';
import type { Catalog } from '../core/catalog/catalog.js';
import type { ClientTokens } from '../core/policy/clientTokens.js';
import { LOCAL_CLIENT, type Policy } from '../core/policy/policyConfig.js';
import type { SwitchboardCore } from '../core/switchboard.js';
import { profileToolsView } from './exposureHandlers.js';

type PolicyMethods =
  | 'policy.get'
  | 'policy.setRule'
  | 'policy.setBackend'
  | 'approvals.list'
  | 'approvals.resolve'
  | 'pins.list'
  | 'pins.approve'
  | 'profiles.list'
  | 'profiles.createToken'
  | 'profiles.rotateToken'
  | 'profiles.revoke';

/** Every catalog item with its origin, per policy kind. */
function items(catalog: Catalog): { kind: PolicyKind; exposed: string; backendId: string; original: string }[] {
  const indexes = {
    tools: catalog.toolIndex,
    prompts: catalog.promptIndex,
    resources: catalog.resourceIndex,
    resourceTemplates: catalog.templateIndex,
  } as const;
  return POLICY_KINDS.flatMap((kind) =>
    [...indexes[kind]].map(([exposed, origin]) => ({
      kind,
      exposed,
      backendId: origin.backendId,
      original: origin.original,
    })),
  );
}

/** Where an item's rule comes from, for one profile (mirrors PolicyEngine.rule). */
function sourceOf(policy: Policy, profile: string, kind: PolicyKind, backendId: string, original: string) {
  const backend = policy.backends[backendId];
  if (backend?.enabled === false) return 'backend' as const;
  if (profile !== LOCAL_CLIENT) {
    const client = policy.clients[profile];
    if (!client || (client.backends && !client.backends.includes(backendId))) return 'client' as const;
    if (client.items?.[backendId]?.[kind]?.[original]) return 'client' as const;
  }
  if (backend?.[kind]?.[original]) return 'item' as const;
  if (backend?.defaultRule) return 'backend' as const;
  return 'default' as const;
}

/** The policy view for `profile` (`*` or absent: every client's rules). */
export function policyView(core: SwitchboardCore, requested: string | undefined): PolicyView {
  const profile = requested === undefined || requested === '*' ? LOCAL_CLIENT : requested;
  const policy = core.access.policy;
  if (profile !== LOCAL_CLIENT && !policy.clients[profile]) {
    throw new SwitchboardError(ErrorCode.UnknownClient, `no client profile "${profile}"`, { client: profile });
  }
  const withheld = new Set(core.pinChanges().map((change) => `${change.backend}\u0000${change.tool}`));
  const itemViews: PolicyItemView[] = items(core.catalog()).map((item) => ({
    ...item,
    rule: core.access.engine.rule(profile, item.kind, item.backendId, item.original),
    source: sourceOf(policy, profile, item.kind, item.backendId, item.original),
    withheld: item.kind === 'tools' && withheld.has(`${item.backendId}\u0000${item.original}`),
  }));
  return {
    profile: requested ?? '*',
    backends: core.backendConfigs().map(({ id }) => {
      const rules = policy.backends[id];
      return {
        id,
        enabled: rules?.enabled !== false,
        defaultRule: rules?.defaultRule ?? policy.defaultRule,
        pinning: rules?.pinning !== false,
        capture: rules?.capture === true,
        visible: profile === LOCAL_CLIENT || (policy.clients[profile]?.backends?.includes(id) ?? true),
      };
    }),
    items: itemViews,
  };
}

/** Handlers of the policy, approval, pin and profile methods. */
export function policyHandlers(
  core: SwitchboardCore,
  tokens: ClientTokens | undefined,
): Pick<CoreHandlers, PolicyMethods> {
  const { access } = core;
  return {
    'policy.get': async (params) => policyView(core, params?.profile),
    'policy.setRule': async ({ backendId, kind, original, rule, profile: requested }) => {
      const profile = requested === '*' ? undefined : requested;
      if (rule !== null) return access.setRule(backendId, kind, original, rule, profile);
      await access.update((policy) => {
        const rules =
          profile === undefined || profile === LOCAL_CLIENT
            ? policy.backends[backendId]
            : policy.clients[profile]?.items?.[backendId];
        if (profile !== undefined && profile !== LOCAL_CLIENT && !policy.clients[profile]) {
          throw new SwitchboardError(ErrorCode.UnknownClient, `no client profile "${profile}"`, { client: profile });
        }
        if (rules?.[kind]) delete rules[kind][original];
      });
    },
    'policy.setBackend': async (params) => {
      const { backendId } = params;
      const profile = params.profile === '*' ? undefined : params.profile;
      if (profile !== undefined && profile !== LOCAL_CLIENT) {
        if (params.visible === undefined) {
          throw new SwitchboardError(
            ErrorCode.InvalidParams,
            'policy.setBackend: visible: with a profile, only "visible" can be set (and it must be)',
            { path: 'visible' },
          );
        }
        const visible = params.visible;
        const all = core.backendConfigs().map((backend) => backend.id);
        return void (await access.update((policy) => {
          const client = policy.clients[profile];
          if (!client) throw new SwitchboardError(ErrorCode.UnknownClient, `no client profile "${profile}"`);
          // An absent list means every server: hiding one lists all the others.
          const seen = new Set(client.backends ?? all);
          if (visible) seen.add(backendId);
          else seen.delete(backendId);
          client.backends = all.filter((id) => seen.has(id)).concat([...seen].filter((id) => !all.includes(id)));
        }));
      }
      await access.update((policy) => {
        const rules = (policy.backends[backendId] ??= {});
        if (params.enabled !== undefined) rules.enabled = params.enabled;
        if (params.defaultRule !== undefined) rules.defaultRule = params.defaultRule;
        if (params.pinning !== undefined) rules.pinning = params.pinning;
        if (params.capture !== undefined) rules.capture = params.capture;
      });
    },
    'approvals.list': async () =>
      access.approvals.pending().map((request) => ({
        id: request.id,
        client: request.client,
        backend: request.backend,
        tool: request.tool,
        exposed: request.exposed,
        ...(request.arguments !== undefined ? { arguments: request.arguments } : {}),
        requestedAt: request.requestedAt,
      })),
    'approvals.resolve': async ({ id, decision }) => {
      if (!access.approvals.resolve(id, decision)) {
        throw new SwitchboardError(ErrorCode.UnknownApproval, `no pending approval "${id}" (answered or timed out)`, {
          id,
        });
      }
    },
    'pins.list': async () =>
      core.pinChanges().map((change) => ({
        backend: change.backend,
        tool: change.tool,
        pinned: change.pinned.definition as unknown as Record<string, unknown>,
        offered: change.offered.definition as unknown as Record<string, unknown>,
        detectedAt: change.detectedAt,
      })),
    'pins.approve': async ({ backendId, tool }) => core.approvePin(backendId, tool),
    'profiles.list': async () =>
      Object.entries(access.policy.clients).map(([id, profile]) => ({
        id,
        name: profile.name,
        ...(profile.backends !== undefined ? { backends: profile.backends } : {}),
        ...(profile.maxTools !== undefined ? { maxTools: profile.maxTools } : {}),
        hasToken: tokens?.has(id) ?? false,
        tools: profileToolsView(core, id),
      })),
    'profiles.createToken': async ({ id, name, backends }) => {
      const token = await access.createClient(id, { name, ...(backends ? { backends } : {}) });
      return { token };
    },
    'profiles.rotateToken': async ({ id }) => ({ token: await access.rotateToken(id) }),
    'profiles.revoke': async ({ id }) => access.revokeClient(id),
  };
}
