/**
 * The merged catalog as the UI lists it, and "try it" calls made as the local
 * user through the same router (and policy) as any client.
 */
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import type { CatalogEntry, ContentView, TryResult } from '../../shared/model/views.js';
import type { Catalog } from '../core/catalog/catalog.js';
import { LOCAL_CLIENT } from '../core/policy/policyConfig.js';
import type { SwitchboardCore } from '../core/switchboard.js';

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

/** Calls a tool as the local user; `signal` cancels it (the backend gets notifications/cancelled). */
export async function tryTool(
  core: SwitchboardCore,
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<TryResult> {
  const { value, durationMs } = await timed(() =>
    core.router.callTool({ name, arguments: args }, { client: LOCAL_CLIENT, ...(signal ? { signal } : {}) }),
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
  core: SwitchboardCore,
  name: string,
  args: Record<string, string>,
  signal?: AbortSignal,
): Promise<TryResult> {
  const { value, durationMs } = await timed(() =>
    core.router.getPrompt({ name, arguments: args }, { client: LOCAL_CLIENT, ...(signal ? { signal } : {}) }),
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
export async function tryRead(core: SwitchboardCore, uri: string, signal?: AbortSignal): Promise<TryResult> {
  const { value, durationMs } = await timed(() =>
    core.router.readResource({ uri }, { client: LOCAL_CLIENT, ...(signal ? { signal } : {}) }),
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
