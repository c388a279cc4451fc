/**
 * The `ask` rule: a call waits for the user's approval. With an approver
 * attached (the UI) the core's broker asks it; otherwise a 2025-era client
 * that supports elicitation is asked directly; otherwise the call is refused
 * with a message saying approval is needed. Returns undefined when approved,
 * or the text of the refusal (sent to the client as a tool error, so a model
 * can tell the user what happened).
 */
import type { ItemOrigin } from '../catalog/catalog.js';
import type { ApprovalBroker, ApprovalDecision } from '../policy/approvals.js';
import { frontendSupports } from '../relay/frontendChannel.js';
import type { RouteOptions } from './router.js';

/** What the approval step needs from the core. */
export interface ApprovalHost {
  approvals: ApprovalBroker;
  /** Time a person has to answer. */
  approvalTimeoutMs(): number;
  /** "Approve always": allow this tool for this client from now on. */
  allowAlways(client: string, origin: ItemOrigin): Promise<void>;
}

/** One call waiting for approval. */
export interface ApprovalCall {
  client: string;
  origin: ItemOrigin;
  exposed: string;
  arguments: Record<string, unknown> | undefined;
}

const DECISIONS: ApprovalDecision[] = ['once', 'always', 'deny'];

/** Asks the calling client itself, through a form elicitation (2025 era). */
async function elicitDecision(
  call: ApprovalCall,
  options: RouteOptions,
  timeoutMs: number,
): Promise<ApprovalDecision | 'timeout' | undefined> {
  const frontend = options.frontend;
  const request = {
    method: 'elicitation/create' as const,
    params: {
      message:
        `Switchboard: allow ${call.exposed} (tool "${call.origin.original}" of server "${call.origin.backendId}") ` +
        `to run with ${JSON.stringify(call.arguments ?? {})}?`,
      requestedSchema: {
        type: 'object',
        properties: {
          decision: {
            type: 'string',
            title: 'Decision',
            enum: DECISIONS,
            enumNames: ['Allow once', 'Always allow', 'Deny'],
          },
        },
        required: ['decision'],
      },
    },
  };
  if (!frontend || frontend.era !== 'legacy' || !frontendSupports(frontend.capabilities, request)) return undefined;
  const signal = options.signal ?? new AbortController().signal;
  try {
    const answer = (await frontend.send(request, { signal, timeout: timeoutMs })) as {
      action?: string;
      content?: { decision?: unknown };
    };
    const decision = answer.content?.decision;
    if (answer.action === 'accept' && DECISIONS.includes(decision as ApprovalDecision))
      return decision as ApprovalDecision;
    return 'deny';
  } catch {
    return signal.aborted ? 'deny' : 'timeout';
  }
}

/** Waits for approval of an `ask` tool call; see the module comment. */
export async function askApproval(
  host: ApprovalHost,
  call: ApprovalCall,
  options: RouteOptions,
): Promise<string | undefined> {
  const timeoutMs = host.approvalTimeoutMs();
  const decision = host.approvals.hasApprover
    ? await host.approvals.request(
        {
          client: call.client,
          backend: call.origin.backendId,
          tool: call.origin.original,
          exposed: call.exposed,
          arguments: call.arguments,
        },
        options.signal,
      )
    : await elicitDecision(call, options, timeoutMs);
  if (decision === undefined) {
    return `Calling ${call.exposed} needs the user's approval, and there is no way to ask for it here: approve it in MCP Switchboard, or set the tool to "allow".`;
  }
  if (decision === 'timeout') return `The user did not approve ${call.exposed} in time; the call was not made.`;
  if (decision === 'deny') return `The user denied the call to ${call.exposed}.`;
  if (decision === 'always') await host.allowAlways(call.client, call.origin);
  return undefined;
}
