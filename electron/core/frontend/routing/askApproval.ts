/**
 * The `ask` rule: a call waits for the user's approval. With an approver
 * attached (the UI) the core's broker asks it; otherwise the calling client
 * is asked itself, where it supports form elicitation: a 2025-era client by
 * an `elicitation/create` request, a 2026-07-28 client by an
 * `input_required` result whose retry carries the answer (Multi Round-Trip
 * Requests, SEP-2322); otherwise the call is refused. The outcome is
 * approved (with the frontend to go on with), refused (the text is sent to
 * the client as a tool error, so a model can tell the user what happened),
 * or the input request to return.
 *
 * Gateway mode (a request with a principal): the person making the call is
 * always the one asked, through their own client; the UI's approver (an
 * administrator) is never asked in their place, a 2026-07-28 retry's answer
 * is only taken from the same person, and "always" is not offered (a
 * person's answer must not change what a whole profile may do).
 */
import type { ItemOrigin } from '../../catalog/catalog.js';
import { ProtocolError, ProtocolErrorCode, type InputRequiredResult } from '@modelcontextprotocol/server';
import { ASK_STATE_PREFIX, type ApprovalBroker, type ApprovalDecision } from '../../catalog/policy/approvals.js';
import { frontendSupports } from '../relay/frontendChannel.js';
import type { RouteOptions } from './routeOptions.js';
import { approvalWaitMs, withHeartbeat } from './approvalWait.js';
import { principalKey } from '../../catalog/policy/principal.js';

/** What the approval step needs from the core. */
export interface ApprovalHost {
  approvals: ApprovalBroker;
  /** Time a person has to answer (the whole wait when the client gave no progress token). */
  approvalTimeoutMs(): number;
  /** Time a person may take to answer input requests: the wait's bound when the client hears progress. */
  inputTimeoutMs(): number;
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
/** Gateway mode: no "always" (it would change the rule for everyone sharing the profile). */
const PERSONAL_DECISIONS: ApprovalDecision[] = ['once', 'deny'];

/** The answers offered to the caller of `options`. */
function decisionsFor(options: RouteOptions): ApprovalDecision[] {
  return options.principal ? PERSONAL_DECISIONS : DECISIONS;
}

/** Who a 2026-07-28 approval's single-use state is bound to: the profile, and in gateway mode the person. */
function askOwner(call: ApprovalCall, options: RouteOptions): string {
  return options.principal ? `${call.client}\u0000${principalKey(options.principal)}` : call.client;
}

/** The question put to a client: a form elicitation with the answers it may give. */
function approvalElicitation(call: ApprovalCall, decisions: ApprovalDecision[] = DECISIONS) {
  const labels: Record<ApprovalDecision, string> = { once: 'Allow once', always: 'Always allow', deny: 'Deny' };
  return {
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
            enum: decisions,
            enumNames: decisions.map((decision) => labels[decision]),
          },
        },
        required: ['decision'],
      },
    },
  };
}

/** Asks the calling client itself, through a form elicitation (2025 era). */
async function elicitDecision(
  call: ApprovalCall,
  options: RouteOptions,
  timeoutMs: number,
): Promise<ApprovalDecision | 'timeout' | undefined> {
  const frontend = options.frontend;
  const decisions = decisionsFor(options);
  const request = approvalElicitation(call, decisions);
  if (!frontend || frontend.era !== 'legacy' || !frontendSupports(frontend.capabilities, request)) return undefined;
  const signal = options.signal ?? new AbortController().signal;
  try {
    const answer = (await frontend.send(request, { signal, timeout: timeoutMs })) as {
      action?: string;
      content?: { decision?: unknown };
    };
    const decision = answer.content?.decision;
    if (answer.action === 'accept' && decisions.includes(decision as ApprovalDecision))
      return decision as ApprovalDecision;
    return 'deny';
  } catch {
    return signal.aborted ? 'deny' : 'timeout';
  }
}

/** The answer of the approval step. */
export type ApprovalOutcome =
  /** Go ahead; `frontend` is the request's frontend with our own approval round removed. */
  | { kind: 'approved'; frontend: RouteOptions['frontend'] }
  /** Refused: tell the client why, as a tool error. */
  | { kind: 'refused'; text: string }
  /** A 2026-07-28 client must answer first: return this and wait for its retry. */
  | { kind: 'input'; result: InputRequiredResult };

/** The key of our approval question among a 2026-07-28 retry's `inputResponses`. */
const ASK_INPUT_KEY = 'switchboard-approval';

/**
 * Asks a 2026-07-28 client itself: no server-to-client requests exist there,
 * so the call answers `input_required` with the question, and the retry
 * (same tool, our single-use `requestState`) carries the answer.
 */
async function askModernClient(
  host: ApprovalHost,
  call: ApprovalCall,
  options: RouteOptions,
): Promise<
  { kind: 'input'; result: InputRequiredResult } | { kind: 'answered'; decision: ApprovalDecision } | undefined
> {
  const frontend = options.frontend;
  if (!frontend || frontend.era !== 'modern') return undefined;
  const state = frontend.requestState;
  const decisions = decisionsFor(options);
  if (state?.startsWith(ASK_STATE_PREFIX)) {
    if (!(await host.approvals.takeAskToken(state, askOwner(call, options), call.exposed))) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState');
    }
    const answer = frontend.inputResponses?.[ASK_INPUT_KEY] as
      { action?: string; content?: { decision?: unknown } } | undefined;
    const decision = answer?.content?.decision;
    const valid = answer?.action === 'accept' && decisions.includes(decision as ApprovalDecision);
    return { kind: 'answered', decision: valid ? (decision as ApprovalDecision) : 'deny' };
  }
  const request = approvalElicitation(call, decisions);
  if (!frontendSupports(frontend.capabilities, request)) return undefined;
  return {
    kind: 'input',
    result: {
      resultType: 'input_required',
      inputRequests: { [ASK_INPUT_KEY]: request },
      requestState: await host.approvals.issueAskToken(askOwner(call, options), call.exposed),
    } as InputRequiredResult,
  };
}

/** Waits for approval of an `ask` tool call; see the module comment. */
export async function askApproval(
  host: ApprovalHost,
  call: ApprovalCall,
  options: RouteOptions,
): Promise<ApprovalOutcome> {
  const timeoutMs = approvalWaitMs(
    { approvalTimeoutMs: host.approvalTimeoutMs(), inputTimeoutMs: host.inputTimeoutMs() },
    options.onProgress !== undefined,
  );
  // Gateway mode: the caller decides, never an approver attached for someone else.
  // Replicas: an approver attached to any replica counts (the call waits here, listed by every UI).
  const approver = options.principal === undefined && (await host.approvals.approverPresent());
  const modern = approver ? undefined : await askModernClient(host, call, options);
  if (modern?.kind === 'input') return modern;
  // Our own round is over: the backend must not see its answer or state.
  const frontend =
    modern?.kind === 'answered' && options.frontend
      ? { ...options.frontend, inputResponses: undefined, requestState: undefined }
      : options.frontend;
  const decision =
    modern?.kind === 'answered'
      ? modern.decision
      : await withHeartbeat(options.onProgress, () =>
          approver
            ? host.approvals.request(
                {
                  client: call.client,
                  backend: call.origin.backendId,
                  tool: call.origin.original,
                  exposed: call.exposed,
                  arguments: call.arguments,
                },
                options.signal,
                timeoutMs,
              )
            : elicitDecision(call, options, timeoutMs),
        );
  if (decision === undefined) {
    return {
      kind: 'refused',
      text: `Calling ${call.exposed} needs the user's approval, and there is no way to ask for it here: approve it in MCP Switchboard, or set the tool to "allow".`,
    };
  }
  if (decision === 'timeout') {
    const seconds = Math.round(timeoutMs / 100) / 10;
    const limit = options.onProgress ? 'inputTimeoutMs' : 'approvalTimeoutMs';
    return {
      kind: 'refused',
      text: `The request timed out waiting for approval of ${call.exposed} (${limit}: ${seconds} s); the call was not made.`,
    };
  }
  if (decision === 'deny') return { kind: 'refused', text: `The user denied the call to ${call.exposed}.` };
  if (decision === 'always') await host.allowAlways(call.client, call.origin);
  return { kind: 'approved', frontend };
}
