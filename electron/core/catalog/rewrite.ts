/**
 * Rewriting resource URIs inside results, so a client can read what a tool or
 * prompt points at through the proxy. Only URIs the owning backend exposes (a
 * listed resource or an instance of one of its templates) are rewritten; any
 * other link is left as the backend wrote it.
 */
import type { CallToolResult, ContentBlock, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import { matchingTemplates, type Catalog } from './catalog.js';
import { advertisedUri } from './uris.js';

/** The advertised form of a backend's URI, or undefined when it is not in the catalog. */
export function advertise(catalog: Catalog, backendId: string, uri: string): string | undefined {
  const entry = catalog.byBackend.get(backendId);
  if (!entry) return undefined;
  const skillFile = catalog.skillFolders.advertise(backendId, uri);
  if (skillFile !== undefined) return skillFile;
  if (entry.uris.has(uri) || matchingTemplates(entry.templates, uri).length > 0) {
    return advertisedUri(backendId, uri);
  }
  return undefined;
}

function rewriteBlock(catalog: Catalog, backendId: string, block: ContentBlock): ContentBlock {
  // Tool results are relayed unvalidated (the client validates them): leave anything odd as it is.
  if (typeof block !== 'object' || block === null) return block;
  if (block.type === 'resource_link' && typeof block.uri === 'string') {
    const uri = advertise(catalog, backendId, block.uri);
    return uri === undefined ? block : { ...block, uri };
  }
  if (block.type === 'resource' && typeof block.resource?.uri === 'string') {
    const uri = advertise(catalog, backendId, block.resource.uri);
    return uri === undefined ? block : { ...block, resource: { ...block.resource, uri } };
  }
  return block;
}

/** Rewrites resource links and embedded resources in a tool result. */
export function rewriteToolResult(catalog: Catalog, backendId: string, result: CallToolResult): CallToolResult {
  if (!Array.isArray(result.content)) return result;
  return { ...result, content: result.content.map((block) => rewriteBlock(catalog, backendId, block)) };
}

/** Rewrites resource links and embedded resources in a prompt's messages. */
export function rewritePromptResult(catalog: Catalog, backendId: string, result: GetPromptResult): GetPromptResult {
  return {
    ...result,
    messages: result.messages.map((message) => ({
      ...message,
      content: rewriteBlock(catalog, backendId, message.content as ContentBlock) as typeof message.content,
    })),
  };
}

/** Rewrites the URIs of read contents to their advertised form. */
export function rewriteReadResult(catalog: Catalog, backendId: string, result: ReadResourceResult): ReadResourceResult {
  return {
    ...result,
    contents: result.contents.map((content) => {
      const uri = advertise(catalog, backendId, content.uri);
      return uri === undefined ? content : { ...content, uri };
    }),
  };
}
