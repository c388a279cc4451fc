/**
 * The Authorization side of the contract: rules per item, backend and
 * profile; pending `ask` approvals; changed tool definitions; client profiles
 * and their tokens (a token is returned once, by create and rotate only).
 */
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { RuleView } from '../../shared/model/views.js';
import type { ClientTokens } from '../core/policy/clientTokens.js';
import { isItemKind } from '../core/policy/itemKinds.js';
import type { SwitchboardCore } from '../core/switchboard.js';
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

function isRule(value: unknown): value is RuleView {
  return value === 'allow' || value === 'deny' || value === 'ask';
}

/** Handlers of the policy, approval, pin and profile methods. */
export function policyHandlers(
  core: SwitchboardCore,
  tokens: ClientTokens | undefined,
): Pick<CoreHandlers, PolicyMethods> {
  const { access } = core;
  return {
    'policy.get': async (params) => core.policy.view(params?.profile),
    'policy.setRule': async (params) => {
      const backendId = requireString(params, 'backendId');
      const original = requireString(params, 'original');
      if (!isItemKind(params.kind))
        throw new SwitchboardError(ErrorCode.InvalidParams, `unknown kind "${String(params.kind)}"`);
      if (params.rule !== null && !isRule(params.rule))
        throw new SwitchboardError(ErrorCode.InvalidParams, `unknown rule "${String(params.rule)}"`);
      await core.policy.setRule(backendId, params.kind, original, params.rule, params.profile);
    },
    'policy.setBackend': async (params) =>
      core.policy.setBackend({ ...params, backendId: requireString(params, 'backendId') }),
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
    'approvals.resolve': async (params) => {
      const id = requireString(params, 'id');
      if (!['once', 'always', 'deny'].includes(params.decision)) {
        throw new SwitchboardError(ErrorCode.InvalidParams, `unknown decision "${String(params.decision)}"`);
      }
      if (!access.approvals.resolve(id, params.decision)) {
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
    'pins.approve': async (params) =>
      core.approvePin(requireString(params, 'backendId'), requireString(params, 'tool')),
    'profiles.list': async () =>
      Object.entries(access.policy.clients).map(([id, profile]) => ({
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
      const token = await access.createClient(id, { name, ...(params.backends ? { backends: params.backends } : {}) });
      return { token };
    },
    'profiles.rotateToken': async (params) => ({ token: await access.rotateToken(requireString(params, 'id')) }),
    'profiles.revoke': async (params) => access.revokeClient(requireString(params, 'id')),
  };
}
