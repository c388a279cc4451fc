/**
 * The Authorization side of the contract: rules per item, backend and
 * profile; pending `ask` approvals; changed tool definitions; client profiles
 * and their tokens (a token is returned once, by create and rotate only).
 */
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { PolicyView } from '../../shared/model/views.js';
import type { ClientTokens } from '../core/catalog/index.js';
import { LOCAL_CLIENT } from '../core/platform/index.js';
import type { Switchboard } from '../core/api/index.js';
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

/** The policy view for `profile` (`*` or absent: every client's rules), with what its tools/list costs. */
export function policyView(core: Switchboard, requested: string | undefined): PolicyView {
  const profile = requested === undefined || requested === '*' ? LOCAL_CLIENT : requested;
  return { ...core.policy.authorizationView(requested), tools: profileToolsView(core, profile) };
}

export function policyHandlers(core: Switchboard, tokens: ClientTokens | undefined): Pick<CoreHandlers, PolicyMethods> {
  return {
    'policy.get': async (params) => policyView(core, params?.profile),
    'policy.setRule': async ({ backendId, kind, original, rule, profile }) =>
      core.policy.setRule(backendId, kind, original, rule, profile),
    'policy.setRules': async ({ rules, profile }) => core.policy.setRules(rules, profile),
    'policy.setBackend': async (params) => {
      const profile = params.profile === '*' ? undefined : params.profile;
      if (profile !== undefined && profile !== LOCAL_CLIENT && params.visible === undefined) {
        throw new SwitchboardError(
          ErrorCode.InvalidParams,
          'policy.setBackend: visible: with a profile, only "visible" can be set (and it must be)',
          { path: 'visible' },
        );
      }
      await core.policy.setBackend(params);
    },
    'approvals.list': async () =>
      (await core.approvals.list()).map((request) => ({
        id: request.id,
        client: request.client,
        backend: request.backend,
        tool: request.tool,
        exposed: request.exposed,
        ...(request.arguments !== undefined ? { arguments: request.arguments } : {}),
        requestedAt: request.requestedAt,
      })),
    'approvals.resolve': async ({ id, decision }) => {
      if (!(await core.approvals.answer(id, decision))) {
        throw new SwitchboardError(ErrorCode.UnknownApproval, `no pending approval "${id}" (answered or timed out)`, {
          id,
        });
      }
    },
    'pins.list': async () =>
      core.policy.pinChanges().map((change) => ({
        backend: change.backend,
        tool: change.tool,
        ...(change.pinned ? { pinned: change.pinned.definition as unknown as Record<string, unknown> } : {}),
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
      const token = await core.profiles.createProfile(id, { name, ...(backends ? { backends } : {}) });
      return { token };
    },
    'profiles.rotateToken': async ({ id }) => ({ token: await core.profiles.rotateToken(id) }),
    'profiles.revoke': async ({ id }) => core.profiles.revokeProfile(id),
  };
}
