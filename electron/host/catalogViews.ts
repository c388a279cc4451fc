/**
 * The merged catalog as the UI lists it, and "try it" calls made as the local
 * user through the same router (and policy) as any client.
 */
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import type { CatalogEntry, ContentView, TryResult } from '../../shared/model/views.js';
import type { Catalog } from '../core/catalog/catalog.js';
import type { Switchboard } from '../core/coreApi.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import { clientName, clientOf, policyItems } from './catalogAccess.js';

/** Every item of the catalog, grouped by kind, with the origin of each. */
export function catalogEntries(catalog: Catalog): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
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
  return entries;
}

const NEEDS_INPUT: ContentView = {
  type: 'text',
  text: 'The server asked for input (elicitation, sampling or roots), which the UI cannot answer here; call it from a client instead.',
};

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; durationMs: number }> {
  const started = performance.now();
  const value = await run();
  return { value, durationMs: Math.round(performance.now() - started) };
}

/**
 * Calls a tool as the main token, or as `profile`; `signal` cancels it (the backend gets notifications/cancelled). A tool that client cannot
 * use says why (an MCP client is answered "unknown tool" instead, so a denied
 * tool cannot be told apart from a missing one; the local user may know).
 */
export async function tryTool(
  core: Switchboard,
  name: string,
  args: Record<string, unknown>,
  profile?: string,
  signal?: AbortSignal,
): Promise<TryResult> {
  const client = clientOf(core, profile);
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
    throw new SwitchboardError(
      ErrorCode.PolicyDenied,
      `${name}: withheld: its definition changed and awaits your approval (Authorization screen)`,
      { tool: name, client },
    );
  }
  const { value, durationMs } = await timed(() =>
    core.router.callTool({ name, arguments: args }, { client, ...(signal ? { signal } : {}) }),
  );
  if (isInputRequiredResult(value)) return { isError: true, content: [NEEDS_INPUT], durationMs };
  const result = value as { content?: ContentView[]; isError?: boolean; structuredContent?: unknown };
  return {
    isError: result.isError === true,
    content: result.content ?? [],
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    durationMs,
  };
}

/** Gets a prompt as the local user: its messages' content in order; roles in `structuredContent`. */
export async function tryPrompt(
  core: Switchboard,
  name: string,
  args: Record<string, string>,
  signal?: AbortSignal,
): Promise<TryResult> {
  const { value, durationMs } = await timed(() =>
    core.router.getPrompt(
      { name, arguments: args },
      { client: clientOf(core, undefined), ...(signal ? { signal } : {}) },
    ),
  );
  if (isInputRequiredResult(value)) return { isError: true, content: [NEEDS_INPUT], durationMs };
  const result = value as { description?: string; messages?: { role: string; content: ContentView | ContentView[] }[] };
  const messages = result.messages ?? [];
  return {
    isError: false,
    content: messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [message.content])),
    structuredContent: { description: result.description, messages },
    durationMs,
  };
}

/** Reads a resource (or template instance) as the local user. */
export async function tryRead(core: Switchboard, uri: string, signal?: AbortSignal): Promise<TryResult> {
  const { value, durationMs } = await timed(() =>
    core.router.readResource({ uri }, { client: clientOf(core, undefined), ...(signal ? { signal } : {}) }),
  );
  if (isInputRequiredResult(value)) return { isError: true, content: [NEEDS_INPUT], durationMs };
  const contents = (value as { contents?: { uri: string; mimeType?: string; text?: string; blob?: string }[] })
    .contents;
  return {
    isError: false,
    content: (contents ?? []).map((resource) => ({ type: 'resource', resource })),
    durationMs,
  };
}
