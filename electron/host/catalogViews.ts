/**
 * The merged catalog as the UI lists it, and "try it" calls made as the local
 * user through the same router (and policy) as any client.
 */
import { isInputRequiredResult, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { CatalogEntry, ContentView, TryResult } from '../../shared/model/views.js';
import type { Catalog } from '../core/catalog/index.js';
import type { BackendConfig } from '../core/platform/index.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { Switchboard } from '../core/api/index.js';
import type { InputRequestMessage, RouteOptions } from '../core/frontend/index.js';
import { refusalsOf } from '../core/backends/index.js';
import { clientName, clientOf, policyItems } from './catalogAccess.js';
import type { TryCall } from './tryCalls.js';

/**
 * Every item of the catalog, grouped by kind, with the origin of each; a tool whose server has an
 * override for it (`backends`: the configs in force) says so.
 */
export function catalogEntries(catalog: Catalog, backends: readonly BackendConfig[] = []): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  const overrides = new Map(backends.map((backend) => [backend.id, backend.overrides]));
  const overridden = (backendId: string, via: 'prompt' | 'resource' | undefined, original: string): boolean => {
    const own = overrides.get(backendId);
    const section = via === 'prompt' ? own?.promptsAsTools : via === 'resource' ? own?.resourcesAsTools : own?.tools;
    return section?.[original] !== undefined;
  };
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  for (const tool of catalog.tools) {
    const origin = catalog.toolIndex.get(tool.name);
    if (!origin) continue;
    const title = text(tool.title) ?? text(tool.annotations?.title);
    entries.push({
      kind: 'tool',
      backendId: origin.backendId,
      exposed: tool.name,
      original: origin.original,
      ...(origin.via !== undefined ? { via: origin.via } : {}),
      ...(overridden(origin.backendId, origin.via, origin.original) ? { overridden: true as const } : {}),
      ...(title !== undefined ? { title } : {}),
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      inputSchema: tool.inputSchema as Record<string, unknown>,
      ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
      ...(tool.annotations !== undefined ? { annotations: { ...tool.annotations } } : {}),
    });
  }
  for (const prompt of catalog.prompts) {
    const origin = catalog.promptIndex.get(prompt.name);
    if (!origin) continue;
    entries.push({
      kind: 'prompt',
      backendId: origin.backendId,
      exposed: prompt.name,
      original: origin.original,
      ...(text(prompt.title) !== undefined ? { title: text(prompt.title) } : {}),
      ...(prompt.description !== undefined ? { description: prompt.description } : {}),
      arguments: (prompt.arguments ?? []).map((argument) => ({
        name: argument.name,
        ...(argument.description !== undefined ? { description: argument.description } : {}),
        ...(argument.required !== undefined ? { required: argument.required } : {}),
      })),
    });
  }
  for (const resource of catalog.resources) {
    const origin = catalog.resourceIndex.get(resource.uri);
    if (!origin) continue;
    entries.push({
      kind: 'resource',
      backendId: origin.backendId,
      exposed: resource.uri,
      original: origin.original,
      ...(text(resource.title) !== undefined ? { title: text(resource.title) } : {}),
      ...(resource.description !== undefined ? { description: resource.description } : {}),
      ...(resource.mimeType !== undefined ? { mimeType: resource.mimeType } : {}),
    });
  }
  for (const template of catalog.resourceTemplates) {
    const origin = catalog.templateIndex.get(template.uriTemplate);
    if (!origin) continue;
    entries.push({
      kind: 'resourceTemplate',
      backendId: origin.backendId,
      exposed: template.uriTemplate,
      original: origin.original,
      ...(text(template.title) !== undefined ? { title: text(template.title) } : {}),
      ...(template.description !== undefined ? { description: template.description } : {}),
      ...(template.mimeType !== undefined ? { mimeType: template.mimeType } : {}),
    });
  }
  for (const skill of catalog.skills) {
    const origin = catalog.skillIndex.get(skill.uri);
    if (!origin) continue;
    entries.push({
      kind: 'skill',
      backendId: origin.backendId,
      exposed: skill.uri,
      original: origin.original,
      description: skill.frontmatter.description,
      ...(Array.isArray(skill.resources)
        ? { files: skill.resources.map((file) => ({ uri: file.uri, size: file.size })) }
        : {}),
    });
  }
  return entries;
}

/**
 * How many input rounds one call may take with a 2026-07-28 backend (each
 * `input_required` answer is one; a wizard-like tool may ask several times).
 */
const MAX_INPUT_ROUNDS = 32;

const CANCELLED: ContentView = {
  type: 'text',
  text: 'Cancelled: the server was sent notifications/cancelled.',
};

/** Per-call options of a "try it" call (the UI's channel, progress and cancellation). */
export interface TryOptions {
  call?: TryCall | undefined;
}

/**
 * Runs one routed request as the local user, with the UI as its client: a
 * 2025-era backend's input requests reach the UI during the call (through
 * the channel); a 2026-07-28 backend's `input_required` result is answered
 * here and the request retried with the answers, as a 2026 client would.
 */
async function asUi<T>(
  route: (options: RouteOptions) => Promise<T | InputRequiredResult>,
  { call, client }: TryOptions & { client: string },
): Promise<{ value: T; durationMs: number; notes: { notes?: string[] } } | { cancelled: TryResult }> {
  const started = performance.now();
  const base: RouteOptions = call ? { client, signal: call.signal, onProgress: call.onProgress } : { client };
  try {
    let value = await route(call ? { ...base, frontend: call.channel() } : base);
    for (let round = 0; call && isInputRequiredResult(value) && round < MAX_INPUT_ROUNDS; round++) {
      const inputResponses: Record<string, unknown> = {};
      for (const [key, request] of Object.entries(value.inputRequests ?? {})) {
        inputResponses[key] = await call.answer(request as InputRequestMessage, {
          signal: call.signal,
          timeout: INPUT_TIMEOUT_MS,
        });
      }
      value = await route({ ...base, frontend: call.channel({ inputResponses, requestState: value.requestState }) });
    }
    if (isInputRequiredResult(value)) throw new Error('the server kept asking for input; gave up');
    const notes = call && call.notes.length > 0 ? { notes: [...call.notes] } : {};
    return { value: value as T, durationMs: Math.round(performance.now() - started), notes };
  } catch (error) {
    if (!call?.cancelled()) throw error;
    const durationMs = Math.round(performance.now() - started);
    return { cancelled: { isError: true, cancelled: true, content: [CANCELLED], durationMs } };
  }
}

/** How long the person may take to answer one question of a 2026-07-28 backend. */
const INPUT_TIMEOUT_MS = 10 * 60_000;

/**
 * Calls a tool as the main token, or as `profile`. A tool that client cannot
 * use says why (an MCP client is answered "unknown tool" instead, so a denied
 * tool cannot be told apart from a missing one; the local user may know).
 */
export async function tryTool(
  core: Switchboard,
  name: string,
  args: Record<string, unknown>,
  options: TryOptions & { profile?: string | undefined } = {},
): Promise<TryResult> {
  const client = clientOf(core, options.profile);
  const item = policyItems(core, client).find((entry) => entry.kind === 'tools' && entry.exposed === name);
  if (item && item.rule === 'deny') {
    const why =
      item.source === 'client' && !item.own
        ? `${clientName(core, client)} does not see server "${item.backendId}"`
        : item.source === 'backend' && core.policy.current.backends[item.backendId]?.enabled === false
          ? `clients may not use server "${item.backendId}" (its switch on the Authorization screen)`
          : `denied by your rule for ${clientName(core, client)}`;
    throw new SwitchboardError(ErrorCode.PolicyDenied, `${name}: ${why}`, { tool: name, client });
  }
  if (item?.withheld) {
    const quarantined = core.reviews.list().find((review) => review.server === item.backendId)?.quarantined;
    throw new SwitchboardError(
      ErrorCode.PolicyDenied,
      quarantined
        ? `${name}: quarantined: server "${item.backendId}" is hidden from clients until you approve it (Review on its card, or mcp-switchboard review ${item.backendId})`
        : `${name}: quarantined: its definition changed since you approved it (Review on the card of "${item.backendId}", or mcp-switchboard review ${item.backendId})`,
      { tool: name, client },
    );
  }
  const run = await asUi((route) => core.router.callTool({ name, arguments: args }, route), { ...options, client });
  if ('cancelled' in run) return run.cancelled;
  const { value, durationMs, notes } = run;
  const result = value as { content?: ContentView[]; isError?: boolean; structuredContent?: unknown };
  return {
    isError: result.isError === true,
    content: result.content ?? [],
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    durationMs,
    ...notes,
    ...sandboxOf(value),
  };
}

/** What the call's sandbox refused it (a failed call only: callRefusals.ts), for the Try-it panel's Allow. */
function sandboxOf(value: unknown): Pick<TryResult, 'sandbox'> {
  const refused = refusalsOf(value);
  if (!refused) return {};
  const { server, blocked, home } = refused;
  return { sandbox: { server, blocked, ...(home ? { home } : {}) } };
}

/** Gets a prompt as the local user: its messages' content in order; roles in `structuredContent`. */
export async function tryPrompt(
  core: Switchboard,
  name: string,
  args: Record<string, string>,
  options: TryOptions = {},
): Promise<TryResult> {
  const run = await asUi((route) => core.router.getPrompt({ name, arguments: args }, route), {
    ...options,
    client: clientOf(core, undefined),
  });
  if ('cancelled' in run) return run.cancelled;
  const { value, durationMs, notes } = run;
  const result = value as { description?: string; messages?: { role: string; content: ContentView | ContentView[] }[] };
  const messages = result.messages ?? [];
  return {
    isError: false,
    content: messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [message.content])),
    structuredContent: { description: result.description, messages },
    durationMs,
    ...notes,
  };
}

/** Reads a resource (or template instance) as the local user. */
export async function tryRead(core: Switchboard, uri: string, options: TryOptions = {}): Promise<TryResult> {
  const run = await asUi((route) => core.router.readResource({ uri }, route), {
    ...options,
    client: clientOf(core, undefined),
  });
  if ('cancelled' in run) return run.cancelled;
  const { value, durationMs, notes } = run;
  const contents = (value as { contents?: { uri: string; mimeType?: string; text?: string; blob?: string }[] })
    .contents;
  return {
    isError: false,
    content: (contents ?? []).map((resource) => ({ type: 'resource', resource })),
    durationMs,
    ...notes,
  };
}
