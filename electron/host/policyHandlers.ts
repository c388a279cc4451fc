/**
 * The Authorization side of the contract: rules per item, backend and
 * profile; pending `ask` approvals; changed tool definitions; client profiles
 * and their tokens (a token is returned once, by create and rotate only).
 */
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { PolicyItemView, PolicyKind, PolicyView, RuleView } from '../../shared/model/views.js';
import type { Catalog } from '../core/catalog/catalog.js';
import type { ClientTokens } from '../core/policy/clientTokens.js';
import { LOCAL_CLIENT, type Policy } from '../core/policy/policyConfig.js';
import type { Switchboard } from '../core/coreApi.js';
import { requireString } from './dispatch.js';
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

const KINDS: PolicyKind[] = ['tools', 'prompts', 'resources', 'resourceTemplates'];

/** Every catalog item with its origin, per policy kind. */
function items(catalog: Catalog): { kind: PolicyKind; exposed: string; backendId: string; original: string }[] {
  const indexes = {
    tools: catalog.toolIndex,
    prompts: catalog.promptIndex,
    resources: catalog.resourceIndex,
    resourceTemplates: catalog.templateIndex,
  } as const;
  return KINDS.flatMap((kind) =>
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
export function policyView(core: Switchboard, requested: string | undefined): PolicyView {
  const profile = requested === undefined || requested === '*' ? LOCAL_CLIENT : requested;
  const policy = core.policy.current;
  if (profile !== LOCAL_CLIENT && !policy.clients[profile]) {
    throw new SwitchboardError(ErrorCode.UnknownClient, `no client profile "${profile}"`, { client: profile });
  }
  const withheld = new Set(core.policy.pinChanges().map((change) => `${change.backend}\u0000${change.tool}`));
  const itemViews: PolicyItemView[] = items(core.catalog()).map((item) => ({
    ...item,
    rule: core.policy.rule(profile, item.kind, item.backendId, item.original),
    source: sourceOf(policy, profile, item.kind, item.backendId, item.original),
    withheld: item.kind === 'tools' && withheld.has(`${item.backendId}\u0000${item.original}`),
  }));
  return {
    profile: requested ?? '*',
    backends: core.backends.backendConfigs().map(({ id }) => {
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

function isKind(value: unknown): value is PolicyKind {
  return typeof value === 'string' && (KINDS as string[]).includes(value);
}

function isRule(value: unknown): value is RuleView {
  return value === 'allow' || value === 'deny' || value === 'ask';
}

/** Handlers of the policy, approval, pin and profile methods. */
export function policyHandlers(core: Switchboard, tokens: ClientTokens | undefined): Pick<CoreHandlers, PolicyMethods> {
  return {
    'policy.get': async (params) => policyView(core, params?.profile),
    'policy.setRule': async (params) => {
      const backendId = requireString(params, 'backendId');
      const original = requireString(params, 'original');
      if (!isKind(params.kind))
        throw new SwitchboardError(ErrorCode.InvalidParams, `unknown kind "${String(params.kind)}"`);
      const kind = params.kind;
      const profile = params.profile === '*' ? undefined : params.profile;
      if (params.rule !== null) {
        if (!isRule(params.rule))
          throw new SwitchboardError(ErrorCode.InvalidParams, `unknown rule "${String(params.rule)}"`);
        return core.policy.setRule(backendId, kind, original, params.rule, profile);
      }
      await core.policy.update((policy) => {
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
      const backendId = requireString(params, 'backendId');
      const profile = params.profile === '*' ? undefined : params.profile;
      if (profile !== undefined && profile !== LOCAL_CLIENT) {
        if (params.visible === undefined) {
          throw new SwitchboardError(ErrorCode.InvalidParams, 'with a profile, only "visible" can be set');
        }
        const visible = params.visible;
        const all = core.backends.backendConfigs().map((backend) => backend.id);
        return void (await core.policy.update((policy) => {
          const client = policy.clients[profile];
          if (!client) throw new SwitchboardError(ErrorCode.UnknownClient, `no client profile "${profile}"`);
          // An absent list means every server: hiding one lists all the others.
          const seen = new Set(client.backends ?? all);
          if (visible) seen.add(backendId);
          else seen.delete(backendId);
          client.backends = all.filter((id) => seen.has(id)).concat([...seen].filter((id) => !all.includes(id)));
        }));
      }
      await core.policy.update((policy) => {
        const rules = (policy.backends[backendId] ??= {});
        if (params.enabled !== undefined) rules.enabled = params.enabled;
        if (params.defaultRule !== undefined) rules.defaultRule = params.defaultRule;
        if (params.pinning !== undefined) rules.pinning = params.pinning;
        if (params.capture !== undefined) rules.capture = params.capture;
      });
    },
    'approvals.list': async () =>
      core.approvals.pending().map((request) => ({
        id: request.id,
        client: request.client,
        backend: request.backend,
        tool: request.tool,
        exposed: request.exposed,
        ...(request.arguments !== undefined ? { arguments: request.arguments } : {}),
        requestedAt: request.requestedAt,
      })),
    'approvals.resolve': async (params) => {
      const id = requireString(params, 'id');
      if (!['once', 'always', 'deny'].includes(params.decision)) {
        throw new SwitchboardError(ErrorCode.InvalidParams, `unknown decision "${String(params.decision)}"`);
      }
      if (!core.approvals.resolve(id, params.decision)) {
        throw new SwitchboardError(ErrorCode.UnknownApproval, `no pending approval "${id}" (answered or timed out)`, {
          id,
        });
      }
    },
    'pins.list': async () =>
      core.policy.pinChanges().map((change) => ({
        backend: change.backend,
        tool: change.tool,
        pinned: change.pinned.definition as unknown as Record<string, unknown>,
        offered: change.offered.definition as unknown as Record<string, unknown>,
        detectedAt: change.detectedAt,
      })),
    'pins.approve': async (params) =>
      core.policy.approvePin(requireString(params, 'backendId'), requireString(params, 'tool')),
    'profiles.list': async () =>
      Object.entries(core.policy.current.clients).map(([id, profile]) => ({
        id,
        name: profile.name,
        ...(profile.backends !== undefined ? { backends: profile.backends } : {}),
        ...(profile.maxTools !== undefined ? { maxTools: profile.maxTools } : {}),
        hasToken: tokens?.has(id) ?? false,
        tools: profileToolsView(core, id),
      })),
    'profiles.createToken': async (params) => {
      const id = requireString(params, 'id');
      const name = requireString(params, 'name');
      const token = await core.clients.createClient(id, {
        name,
        ...(params.backends ? { backends: params.backends } : {}),
      });
      return { token };
    },
    'profiles.rotateToken': async (params) => ({ token: await core.clients.rotateToken(requireString(params, 'id')) }),
    'profiles.revoke': async (params) => core.clients.revokeClient(requireString(params, 'id')),
  };
}
