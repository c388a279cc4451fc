/**
 * Each client's tools/list, by its exposure: every tool it may use (`all`), or
 * the search meta-tools plus the tools pinned to always show (`search`); and
 * `search_tools` over exactly what that client may use, under the names it
 * sees. Lists, fingerprints and name maps are cached per client view (the
 * policy engine rebuilds a view whenever the catalog, policy or pins change).
 */
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/server';
import type { Catalog } from '../catalog/catalog.js';
import type { Policy } from '../policy/policyConfig.js';
import type { ClientView } from '../policy/policyEngine.js';
import { ToolSearchIndex } from '../search/toolSearchIndex.js';
import { ALWAYS_LOAD_META, callToolDefinition, searchToolDefinition } from './metaTools.js';

/** One search result, as `search_tools` returns it. */
export interface FoundTool {
  /** The name the client passes to `call_tool` (its shortened name where it has a name budget). */
  name: string;
  /** The backend the tool comes from. */
  server: string;
  title?: string;
  description: string;
  inputSchema: Tool['inputSchema'];
  annotations?: Tool['annotations'];
}

/** What the exposure reads from the core. */
export interface ExposureSource {
  catalog(): Catalog;
  view(client: string): ClientView;
  policy(): Policy;
}

interface ListedTools {
  tools: Tool[];
  fingerprint: string;
  /** Catalog name -> the tool as this client sees it (searchable universe). */
  byCatalogName: Map<string, Tool>;
}

/** Tool exposure for every client. */
export class ToolExposure {
  private readonly index = new ToolSearchIndex();
  private indexedCatalog: Catalog | undefined;
  private readonly listed = new WeakMap<ClientView, ListedTools>();

  constructor(private readonly source: ExposureSource) {}

  /** The exposure in force for a client. */
  mode(client: string): 'all' | 'search' {
    return this.source.view(client).exposure;
  }

  /** The client's tools/list. */
  list(client: string): Tool[] {
    return this.listedFor(client).tools;
  }

  /** A digest of the client's tools/list: it changes exactly when the list does. */
  fingerprint(client: string): string {
    return this.listedFor(client).fingerprint;
  }

  /** Number of tools the client may use (what search covers). */
  reachable(client: string): number {
    return this.listedFor(client).byCatalogName.size;
  }

  /** The best matches for `query` among the tools the client may use, best first. */
  search(client: string, query: string, limit: number): FoundTool[] {
    this.syncIndex();
    const { byCatalogName } = this.listedFor(client);
    const catalog = this.source.catalog();
    return this.index
      .search(query, limit, (name) => byCatalogName.has(name))
      .map(({ name }) => {
        const tool = byCatalogName.get(name)!;
        const found: FoundTool = {
          name: tool.name,
          server: catalog.toolIndex.get(name)!.backendId,
          description: tool.description ?? '',
          inputSchema: tool.inputSchema,
        };
        if (tool.title) found.title = tool.title;
        if (tool.annotations) found.annotations = tool.annotations;
        return found;
      });
  }

  /** Brings the search index in line with the published catalog (only changed tools are re-indexed). */
  syncIndex(): void {
    const catalog = this.source.catalog();
    if (catalog === this.indexedCatalog) return;
    const tools = catalog.tools.map((tool) => ({ tool, origin: catalog.toolIndex.get(tool.name)! }));
    this.index.sync(tools);
    this.indexedCatalog = catalog;
  }

  private listedFor(client: string): ListedTools {
    const view = this.source.view(client);
    let listed = this.listed.get(view);
    if (!listed) {
      listed = this.build(view);
      this.listed.set(view, listed);
    }
    return listed;
  }

  private build(view: ClientView): ListedTools {
    const catalog = this.source.catalog();
    const policy = this.source.policy();
    const byCatalogName = new Map<string, Tool>();
    const shown: Tool[] = [];
    const pinned: Tool[] = [];
    for (const tool of view.tools) {
      const catalogName = view.aliases.get(tool.name) ?? tool.name;
      byCatalogName.set(catalogName, tool);
      const origin = catalog.toolIndex.get(catalogName);
      const always = origin && policy.backends[origin.backendId]?.alwaysShow?.includes(origin.original);
      const listedTool = always ? { ...tool, _meta: { ...tool._meta, [ALWAYS_LOAD_META]: true } } : tool;
      shown.push(listedTool);
      if (always) pinned.push(listedTool);
    }
    const tools = view.exposure === 'search' ? [searchToolDefinition, callToolDefinition, ...pinned] : shown;
    const fingerprint = createHash('sha256').update(JSON.stringify(tools)).digest('base64url');
    return { tools, fingerprint, byCatalogName };
  }
}
