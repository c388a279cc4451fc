/**
 * A small merged catalog for policy tests: built by the real catalog code from
 * two backends' lists (tools, prompts, resources, templates), so exposed names
 * and URIs are the ones clients would see.
 */
import type { BackendCatalog } from '../../electron/core/backends/index.js';
import { buildCatalog, type Catalog } from '../../electron/core/catalog/index.js';

const empty: BackendCatalog = { tools: [], prompts: [], resources: [], resourceTemplates: [] };

/** Backend `gh` (tools search, create_issue_comment; prompt summarize; resource and template) and `fs` (tool read). */
export function twoBackendCatalog(): Catalog {
  const gh: BackendCatalog = {
    ...empty,
    tools: [
      { name: 'search', inputSchema: { type: 'object' } },
      { name: 'create_issue_comment', inputSchema: { type: 'object' } },
    ],
    prompts: [{ name: 'summarize' }],
    resources: [{ uri: 'note://a', name: 'a' }],
    resourceTemplates: [{ uriTemplate: 'note://tpl/{id}', name: 'tpl' }],
  };
  const fs: BackendCatalog = { ...empty, tools: [{ name: 'read', inputSchema: { type: 'object' } }] };
  const { catalog, refused } = buildCatalog(
    [
      { backendId: 'gh', prefix: 'gh', snapshot: gh },
      { backendId: 'fs', prefix: 'fs', snapshot: fs },
    ],
    { separator: '_', maxItems: 1000 },
  );
  if (refused.size > 0) throw new Error(`fixture refused: ${[...refused.keys()].join(', ')}`);
  return catalog;
}

/** The exposed name or URI of a backend's item of one kind. */
export function exposedOf(
  index: ReadonlyMap<string, { backendId: string; original: string }>,
  backendId: string,
  original: string,
): string {
  for (const [exposed, origin] of index) {
    if (origin.backendId === backendId && origin.original === original) return exposed;
  }
  throw new Error(`no ${backendId}/${original} in the index`);
}
