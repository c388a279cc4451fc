/**
 * The Authorization side of the contract: rules per item, backend and
 * profile; pending `ask` approvals; changed tool definitions; client profiles
 * and their tokens (a token is returned once, by create and rotate only).
 */
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { PolicyView } from '../../shared/model/views.js';
import type { ClientTokens } from '../core/policy/clientTokens.js';
import { LOCAL_CLIENT } from '../core/policy/policyConfig.js';
import type { Switchboard } from '../core/coreApi.js';
import { policyItems } from './catalogAccess.js';
import { profileToolsView } from './exposureHandlers.js';

type PolicyMethods =
  | 'policy.get'
  | 'policy.setRule'
  | 'policy.setRules'
  | 'policy.setBackend'
  | 'approvals.list'
  | 'approvals.resolve'
  | 'pins.list'
  | 'pins.approve'
  | 'profiles.list'
  | 'profiles.createToken'
  | 'profiles.rotateToken'
  | 'profiles.revoke';

/** The policy view for `profile` (`*` or absent: every client's rules). */
export function policyView(core: Switchboard, requested: string | undefined): PolicyView {
  const profile = requested === undefined || requested === '*' ? LOCAL_CLIENT : requested;
  const policy = core.policy.current;
  if (profile !== LOCAL_CLIENT && !policy.clients[profile]) {
    throw new SwitchboardError(ErrorCode.UnknownClient, `no client profile "${profile}"`, { client: profile });
  }
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
    items: policyItems(core, profile),
    tools: profileToolsView(core, profile),
  };
}

/** Handlers of the policy, approval, pin and profile methods. */
export function policyHandlers(core: Switchboard, tokens: ClientTokens | undefined): Pick<CoreHandlers, PolicyMethods> {
  return {
    'policy.get': async (params) => policyView(core, params?.profile),
    'policy.setRule': async ({ backendId, kind, original, rule, profile: requested }) => {
      const profile = requested === '*' ? undefined : requested;
      if (rule !== null) return core.policy.setRule(backendId, kind, original, rule, profile);
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
    'policy.setRules': async (params) => {
      const profile = params.profile === '*' || params.profile === LOCAL_CLIENT ? undefined : params.profile;
      // The schema checked each entry's fields; ask applies to tools only.
      params.rules.forEach((change, index) => {
        if (change.rule === 'ask' && change.kind !== 'tools') {
          throw new SwitchboardError(ErrorCode.InvalidParams, `rules[${index}].rule: only tools can be set to ask`, {
            path: `rules.${index}.rule`,
          });
        }
      });
      if (profile !== undefined && !core.policy.current.clients[profile]) {
        throw new SwitchboardError(ErrorCode.UnknownClient, `no client profile "${profile}"`, { client: profile });
      }
      // One write (and one policyChanged) for the whole batch.
      await core.policy.update((policy) => {
        for (const { backendId, kind, original, rule } of params.rules) {
          const holder =
            profile === undefined
              ? (policy.backends[backendId] ??= {})
              : ((policy.clients[profile]!.items ??= {})[backendId] ??= {});
          if (rule === null) delete holder[kind]?.[original];
          else (holder[kind] ??= {})[original] = rule as never;
        }
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
    'approvals.resolve': async ({ id, decision }) => {
      if (!core.approvals.resolve(id, decision)) {
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
    'pins.approve': async ({ backendId, tool }) => core.policy.approvePin(backendId, tool),
    'profiles.list': async () =>
      Object.entries(core.policy.current.clients).map(([id, profile]) => ({
        id,
        name: profile.name,
        ...(profile.backends !== undefined ? { backends: profile.backends } : {}),
        ...(profile.maxTools !== undefined ? { maxTools: profile.maxTools } : {}),
        hasToken: tokens?.has(id) ?? false,
        tools: profileToolsView(core, id),
      })),
    'profiles.createToken': async ({ id, name, backends }) => {
      const token = await core.clients.createClient(id, { name, ...(backends ? { backends } : {}) });
      return { token };
    },
    'profiles.rotateToken': async ({ id }) => ({ token: await core.clients.rotateToken(id) }),
    'profiles.revoke': async ({ id }) => core.clients.revokeClient(id),
  };
}
