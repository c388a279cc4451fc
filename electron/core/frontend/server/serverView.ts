/**
 * What one client sees on one server's own endpoint: its view of the merged
 * catalog (every rule, pin and quarantine of its profile already applied),
 * narrowed to that server's items and renamed to the server's own names and
 * URIs (catalog/serverCatalog.ts). Lists always hold every tool the client
 * may use (one server's tools need no search mode); a profile's
 * `maxNameLength` still shortens names that do not fit. Results coming back
 * carry the server's own URIs again (the reverse of catalog/rewrite.ts).
 */
import { createHash } from 'node:crypto';
import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  ReadResourceResult,
  Tool,
} from '@modelcontextprotocol/server';
import type { ClientView } from '../../catalog/policy/policyEngine.js';
import type { NamedKind, ServerCatalog } from '../../catalog/serverCatalog.js';
import { fitName } from '../../catalog/naming.js';

/** One client's view of one server, with its tools/list fingerprint. */
export interface ServerClientView extends ClientView {
  fingerprint: string;
}

/**
 * Narrows `merged` (the client's view of the merged catalog; its `tools`
 * already as tools/list shows them, task support included) to the server of
 * `scope`, under own names. `budget`: the profile's `maxNameLength`.
 */
export function narrowView(
  merged: ClientView,
  tools: readonly Tool[],
  scope: ServerCatalog,
  budget: number | undefined,
): ServerClientView {
  const aliases = new Map<string, string>();
  const renamed = <T extends { name: string }>(kind: NamedKind, items: readonly T[]): T[] =>
    items.flatMap((item) => {
      const own = scope.ownName(kind, merged.aliases.get(item.name) ?? item.name);
      if (own === undefined) return [];
      const shown = budget === undefined ? own : fitName(own, budget);
      if (shown !== own) aliases.set(shown, own);
      return [{ ...item, name: shown }];
    });
  const ownTools = renamed('tools', tools);
  const prompts = renamed('prompts', merged.prompts);
  const resources = merged.resources.flatMap((resource) => {
    const uri = scope.ownUri(resource.uri);
    return uri === undefined ? [] : [{ ...resource, uri }];
  });
  const resourceTemplates = merged.resourceTemplates.flatMap((template) => {
    const uriTemplate = scope.ownUri(template.uriTemplate);
    return uriTemplate === undefined ? [] : [{ ...template, uriTemplate }];
  });
  const catalogName = (name: string): string => aliases.get(name) ?? name;
  return {
    tools: ownTools,
    prompts,
    resources,
    resourceTemplates,
    // A server's own endpoint serves no skills (yet): their URIs are the merged catalog's.
    skills: [],
    allowed: {
      tools: new Set(ownTools.map((tool) => catalogName(tool.name))),
      prompts: new Set(prompts.map((prompt) => catalogName(prompt.name))),
      resources: new Set(resources.map((resource) => resource.uri)),
      resourceTemplates: new Set(resourceTemplates.map((template) => template.uriTemplate)),
      skills: new Set<string>(),
    },
    aliases,
    exposure: 'all',
    fingerprint: createHash('sha256').update(JSON.stringify(ownTools)).digest('base64url'),
  };
}

/** A content block with this server's advertised URIs back to its own. */
function ownBlock(scope: ServerCatalog, block: ContentBlock): ContentBlock {
  // Results are relayed unvalidated (the client validates them): leave anything odd as it is.
  if (typeof block !== 'object' || block === null) return block;
  if (block.type === 'resource_link' && typeof block.uri === 'string') {
    return { ...block, uri: scope.ownUri(block.uri) ?? block.uri };
  }
  if (block.type === 'resource' && typeof block.resource?.uri === 'string') {
    return { ...block, resource: { ...block.resource, uri: scope.ownUri(block.resource.uri) ?? block.resource.uri } };
  }
  return block;
}

/** A tool result under the server's own URIs. */
export function ownToolResult<R extends Partial<CallToolResult>>(scope: ServerCatalog, result: R): R {
  if (!Array.isArray(result.content)) return result;
  return { ...result, content: result.content.map((block) => ownBlock(scope, block)) };
}

/** A prompt result under the server's own URIs. */
export function ownPromptResult<R extends Partial<GetPromptResult>>(scope: ServerCatalog, result: R): R {
  if (!Array.isArray(result.messages)) return result;
  return {
    ...result,
    messages: result.messages.map((message) => ({
      ...message,
      content: ownBlock(scope, message.content as ContentBlock) as typeof message.content,
    })),
  };
}

/** A read result under the server's own URIs. */
export function ownReadResult<R extends Partial<ReadResourceResult>>(scope: ServerCatalog, result: R): R {
  if (!Array.isArray(result.contents)) return result;
  return {
    ...result,
    contents: result.contents.map((content) => ({ ...content, uri: scope.ownUri(content.uri) ?? content.uri })),
  };
}
