/**
 * Each client's tools/list, by its exposure: every tool it may use (`all`), or
 * the search meta-tools plus the tools pinned to always show (`search`), plus
 * what the session found (`search+load`); and `search_tools` over exactly what
 * that client may use, under the names it sees. Lists, fingerprints and name
 * maps are cached per client view (the policy engine rebuilds a view whenever
 * the catalog, policy or pins change).
 *
 * A backend tool whose exposed name is a meta-tool's (`search_tools` or
 * `call_tool` under an empty prefix) keeps that name in `all`; in the search
 * modes the meta-tool holds the name in tools/list and for direct calls, and
 * the backend tool is found by search and called through `call_tool`.
 *
 * Code mode (`code`, or `runCode` on a profile in a search mode) lists
 * `run_code`; its functions are the client's reachable tools, declared in
 * its description while they fit a budget, else found by search (whose
 * results then carry each function's `call` declaration).
 *
 * Search uses one index of the catalog's tools (servers' overrides applied),
 * except for a profile with tool overrides of its own: it gets its own index
 * of its view (kept in step with it), so it finds tools by what it sees.
 * A profile with `pinMostUsed` also lists, in a search mode, the tools it
 * called most (a bounded count per profile, in this process); when that set
 * changes its sessions are told their list changed.
 * Skills (SEP-2640) have an index of their own (name and description from
 * their frontmatter, server), searched for clients that declare the skills
 * extension, among the skills that client may use.
 */
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/server';
import type { ExposureInForce } from '../../../../shared/model/exposure.js';
import type { Catalog } from '../../catalog/catalog.js';
import type { Policy } from '../../platform/config/policyConfig.js';
import type { ClientView } from '../../catalog/policy/policyEngine.js';
import { ToolSearchIndex } from './search/toolSearchIndex.js';
import type { LoadedTools } from './loadedTools.js';
import { ProfileLoads } from './profileLoads.js';
import { ALWAYS_LOAD_META, DESCRIBE_TOOL, META_TOOLS, SEARCH_TOOL } from './metaTools.js';
import { serverDirectory } from './serverDirectory.js';
import {
  LocalSuspendedRuns,
  RUN_CODE_TOOL,
  runCodeDefinition,
  type CodeTools,
  type SuspendedRuns,
} from './code/codeRun.js';
import { accessPath, declareFunction, declareTools, type DeclaredTool } from './code/declarations.js';

const META_NAMES: ReadonlySet<string> = new Set([...META_TOOLS.map((tool) => tool.name), RUN_CODE_TOOL]);
/** Code mode declares its functions in run_code's description up to this many characters; beyond, search finds them. */
export const DECLARATIONS_BUDGET = 12_000;

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
  /** Code mode: how a program calls it, as a TypeScript declaration (`tools.gh.add(args: {...}): Promise<any>`). */
  call?: string;
}

/** One skill search found, as `search_tools` returns it: read it with skills/get by its URI. */
export interface FoundSkill {
  /** The advertised URI of its SKILL.md (what skills/get takes). */
  uri: string;
  name: string;
  server: string;
  description: string;
}

/** What the exposure reads from the core. */
export interface ToolExposureHost {
  catalog(): Catalog;
  view(client: string): ClientView;
  policy(): Policy;
  /** A profile's most-called tools changed (its search-mode list with them). */
  pinsChanged?(): void;
}

/** Tools counted per profile for `pinMostUsed`; past this many, the least called is forgotten. */
export const MAX_COUNTED_TOOLS = 200;

interface ListedTools {
  tools: Tool[];
  fingerprint: string;
  /** Catalog name -> the tool as this client sees it (searchable universe). */
  byCatalogName: Map<string, Tool>;
  /** Names in `tools` (a loaded tool already listed, e.g. pinned, is not listed twice). */
  names: Set<string>;
  /** Backend tools whose names the meta-tools hold in this list (reachable through call_tool only). */
  shadowed: Tool[];
  /** Code mode's functions (built with the list when the client uses code mode). */
  code?: CodeTools & { byCatalogName: Map<string, DeclaredTool> };
  /** Catalog names of the most-called tools listed (`pinMostUsed`), most called first. */
  mostUsed: string[];
}

/** Tool exposure for every client. */
export class ToolExposure {
  private readonly index = new ToolSearchIndex();
  private indexedCatalog: Catalog | undefined;
  private readonly skillIndex = new ToolSearchIndex();
  private skillsIndexedCatalog: Catalog | undefined;
  private readonly listed = new WeakMap<ClientView, ListedTools>();
  /** Profiles with tool overrides of their own: an index of their view, and the view it was synced to. */
  private readonly profileIndexes = new Map<string, { view: ClientView; index: ToolSearchIndex }>();
  /** What 2026-07-28 clients (no session) loaded, per client profile. */
  readonly profiles = new ProfileLoads();
  /** Calls per catalog name, per profile with `pinMostUsed` (at most MAX_COUNTED_TOOLS each). */
  private readonly callCounts = new Map<string, Map<string, number>>();
  /** Code mode's runs waiting for a 2026-07-28 client's retry: in memory, or shared by replicas. */
  private runs: SuspendedRuns = new LocalSuspendedRuns();

  constructor(private readonly source: ToolExposureHost) {}

  /** Where code mode's runs wait for their retry. */
  get suspendedRuns(): SuspendedRuns {
    return this.runs;
  }

  /** Replicas: runs wait in Redis, so a retry may land on any replica. */
  shareSuspendedRuns(store: SuspendedRuns): void {
    this.runs = store;
  }

  /** The exposure in force for a client. */
  mode(client: string): ExposureInForce {
    return this.source.view(client).exposure;
  }

  /** Whether a client has `run_code`: code mode, or a search mode with the profile's `runCode`. */
  runsCode(client: string): boolean {
    return this.listedFor(client).code !== undefined;
  }

  /** Code mode's functions for a client (undefined: it has no `run_code`). */
  codeTools(client: string): CodeTools | undefined {
    return this.listedFor(client).code;
  }

  /** The client's tools/list; with `loaded`, that session's (its loaded tools listed under `search+load`). */
  list(client: string, loaded?: LoadedTools): Tool[] {
    const listed = this.listedFor(client);
    const extra = this.loadedFor(client, listed, loaded);
    return extra.length === 0 ? listed.tools : [...listed.tools, ...extra];
  }

  /** A digest of the client's (or that session's) tools/list: it changes exactly when the list does. */
  fingerprint(client: string, loaded?: LoadedTools): string {
    const listed = this.listedFor(client);
    const extra = this.loadedFor(client, listed, loaded);
    if (extra.length === 0) return listed.fingerprint;
    return createHash('sha256').update(listed.fingerprint).update(JSON.stringify(extra)).digest('base64url');
  }

  /**
   * Under `search+load`, adds found tools (best first, under the client's
   * names) to a session's loaded tools; tools it lists anyway and tools
   * shadowed by a meta-tool's name are left out. Returns whether its list changed.
   */
  load(client: string, loaded: LoadedTools, found: readonly FoundTool[]): boolean {
    const view = this.source.view(client);
    if (view.exposure !== 'search+load') return false;
    const listed = this.listedFor(client);
    const before = this.fingerprint(client, loaded);
    const names = found
      .filter((tool) => !listed.names.has(tool.name) && !META_NAMES.has(tool.name))
      .map((tool) => view.aliases.get(tool.name) ?? tool.name);
    return loaded.load(names) && this.fingerprint(client, loaded) !== before;
  }

  /** The fingerprint of a profile's 2026-07-28 tools/list (with the tools its requests loaded). */
  profileFingerprint(client: string): string {
    return this.fingerprint(client, this.profiles.of(client));
  }

  /** Backend tools named like a meta-tool, which the client's search-mode list does not show under their name. */
  shadowed(client: string): Tool[] {
    return this.listedFor(client).shadowed;
  }

  /** Number of tools the client may use (what search covers). */
  reachable(client: string): number {
    return this.listedFor(client).byCatalogName.size;
  }

  /** The best matches for `query` among the tools the client may use, best first. */
  search(client: string, query: string, limit: number): FoundTool[] {
    const index = this.indexFor(client);
    const { byCatalogName, code } = this.listedFor(client);
    return index
      .search(query, limit, (name) => byCatalogName.has(name))
      .map(({ name }) => {
        const found = this.found(name, byCatalogName.get(name)!);
        // Code mode: how the program calls it, for a catalog too large to declare in run_code's description.
        const declared = code?.byCatalogName.get(name);
        if (declared)
          found.call = `${accessPath(declared.namespace, declared.fn)}: ${declareFunction(declared).split('\n').pop()}`;
        return found;
      });
  }

  /**
   * Counts a call of `name` (as the client named it) for a profile with
   * `pinMostUsed`; for others it does nothing. When its most-called tools
   * change, its list is rebuilt and its sessions told (pinsChanged).
   */
  counted(client: string, name: string): void {
    const pinMostUsed = this.source.policy().clients[client]?.pinMostUsed;
    if (pinMostUsed === undefined) return;
    const view = this.source.view(client);
    const catalogName = view.aliases.get(name) ?? name;
    // Only tools it may use count (a name nothing answers to is no habit).
    if (!view.allowed.tools.has(catalogName)) return;
    let counts = this.callCounts.get(client);
    if (!counts) this.callCounts.set(client, (counts = new Map()));
    if (!counts.has(catalogName) && counts.size >= MAX_COUNTED_TOOLS) {
      const [least] = [...counts].sort((a, b) => a[1] - b[1])[0]!;
      counts.delete(least);
    }
    counts.set(catalogName, (counts.get(catalogName) ?? 0) + 1);
    const listed = this.listed.get(view);
    if (!listed || view.exposure === 'all') return;
    if (this.mostUsed(client, view, pinMostUsed).join('\n') === listed.mostUsed.join('\n')) return;
    this.listed.delete(view);
    this.source.pinsChanged?.();
  }

  /** The client's most-called tools it may still use, most called first (ties by name), at most `n`. */
  private mostUsed(client: string, view: ClientView, n: number): string[] {
    const counts = this.callCounts.get(client);
    if (!counts) return [];
    const allowed = view.allowed.tools;
    return [...counts]
      .filter(([name]) => allowed.has(name))
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, n)
      .map(([name]) => name);
  }

  /** The best matching skills among those the client may use, best first (the catalog's skill index, kept in step). */
  searchSkills(client: string, query: string, limit: number): FoundSkill[] {
    const catalog = this.source.catalog();
    if (catalog !== this.skillsIndexedCatalog) {
      // A skill is indexed as a tool named by its URI (its path words: server and folder) with its frontmatter.
      this.skillIndex.sync(
        catalog.skills.flatMap((skill) => {
          const origin = catalog.skillIndex.get(skill.uri);
          if (!origin) return [];
          const { name, description } = skill.frontmatter;
          return [
            { tool: { name: skill.uri, title: name, description, inputSchema: { type: 'object' as const } }, origin },
          ];
        }),
      );
      this.skillsIndexedCatalog = catalog;
    }
    if (this.skillIndex.size === 0) return [];
    const visible = new Map(this.source.view(client).skills.map((skill) => [skill.uri, skill]));
    return this.skillIndex
      .search(query, limit, (uri) => visible.has(uri))
      .map(({ name: uri }) => {
        const skill = visible.get(uri)!;
        return {
          uri,
          name: skill.frontmatter.name,
          server: catalog.skillIndex.get(uri)!.backendId,
          description: skill.frontmatter.description,
        };
      });
  }

  /** A tool the client may use, by the name it sees (a shortened one included); undefined for any other name. */
  visible(client: string, name: string): Tool | undefined {
    const catalogName = this.source.view(client).aliases.get(name) ?? name;
    return this.listedFor(client).byCatalogName.get(catalogName);
  }

  /** The named tools in full (names the client does not see are left out), as `describe_tools` returns them. */
  describe(client: string, names: readonly string[]): FoundTool[] {
    const aliases = this.source.view(client).aliases;
    return names.flatMap((name) => {
      const tool = this.visible(client, name);
      return tool ? [this.found(aliases.get(name) ?? name, tool)] : [];
    });
  }

  private found(catalogName: string, tool: Tool): FoundTool {
    const found: FoundTool = {
      name: tool.name,
      server: this.source.catalog().toolIndex.get(catalogName)!.backendId,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema,
    };
    if (tool.title) found.title = tool.title;
    if (tool.annotations) found.annotations = tool.annotations;
    return found;
  }

  /** Brings the search index in line with the published catalog (only changed tools are re-indexed). */
  syncIndex(): void {
    const catalog = this.source.catalog();
    if (catalog === this.indexedCatalog) return;
    const tools = catalog.tools.map((tool) => ({ tool, origin: catalog.toolIndex.get(tool.name)! }));
    this.index.sync(tools);
    this.indexedCatalog = catalog;
  }

  /** The index `client` searches: the catalog's, or its own when its profile overrides tools (see the file header). */
  private indexFor(client: string): ToolSearchIndex {
    this.syncIndex();
    const overrides = (id: string) => this.source.policy().clients[id]?.overrides ?? {};
    // A profile removed or without overrides any more gives its index back.
    for (const id of this.profileIndexes.keys())
      if (Object.keys(overrides(id)).length === 0) this.profileIndexes.delete(id);
    if (Object.keys(overrides(client)).length === 0) return this.index;
    const view = this.source.view(client);
    const entry = this.profileIndexes.get(client);
    if (entry?.view === view) return entry.index;
    const index = entry?.index ?? new ToolSearchIndex();
    const catalog = this.source.catalog();
    index.sync(
      view.tools.flatMap((tool) => {
        const name = view.aliases.get(tool.name) ?? tool.name;
        const origin = catalog.toolIndex.get(name);
        return origin ? [{ tool: { ...tool, name }, origin }] : [];
      }),
    );
    this.profileIndexes.set(client, { view, index });
    return index;
  }

  private listedFor(client: string): ListedTools {
    const view = this.source.view(client);
    let listed = this.listed.get(view);
    if (!listed) {
      listed = this.build(view, client);
      this.listed.set(view, listed);
    }
    return listed;
  }

  private build(view: ClientView, client: string): ListedTools {
    const catalog = this.source.catalog();
    const policy = this.source.policy();
    const byCatalogName = new Map<string, Tool>();
    const shown: Tool[] = [];
    const pinned: Tool[] = [];
    const search = view.exposure !== 'all';
    const pinMostUsed = policy.clients[client]?.pinMostUsed;
    const mostUsed = search && pinMostUsed !== undefined ? this.mostUsed(client, view, pinMostUsed) : [];
    const autoPinned = new Set(mostUsed);
    for (const tool of view.tools) {
      const catalogName = view.aliases.get(tool.name) ?? tool.name;
      byCatalogName.set(catalogName, tool);
      const origin = catalog.toolIndex.get(catalogName);
      const always =
        autoPinned.has(catalogName) ||
        (origin && policy.backends[origin.backendId]?.alwaysShow?.includes(origin.original));
      const listedTool = always ? { ...tool, _meta: { ...tool._meta, [ALWAYS_LOAD_META]: true } } : tool;
      shown.push(listedTool);
      if (always) pinned.push(listedTool);
    }
    const shadowed = search ? view.tools.filter((tool) => META_NAMES.has(tool.name)) : [];
    const runCode = view.exposure === 'code' || (search && policy.clients[client]?.runCode === true);
    const code = runCode ? codeToolsOf(catalog, byCatalogName) : undefined;
    const meta = search ? this.metaTools(view) : [];
    // Code mode: run_code, with search_tools and describe_tools only when its declarations do not fit.
    const metaTools =
      view.exposure === 'code'
        ? [
            ...(code!.declarations
              ? []
              : meta.filter((tool) => tool.name === SEARCH_TOOL || tool.name === DESCRIBE_TOOL)),
            runCodeDefinition(code!.declarations),
          ]
        : [...meta, ...(code ? [runCodeDefinition(undefined)] : [])];
    const tools = search ? [...metaTools, ...pinned.filter((tool) => !META_NAMES.has(tool.name))] : shown;
    const fingerprint = createHash('sha256').update(JSON.stringify(tools)).digest('base64url');
    const listed: ListedTools = {
      tools,
      fingerprint,
      byCatalogName,
      names: new Set(tools.map((tool) => tool.name)),
      shadowed,
      mostUsed,
    };
    if (code) listed.code = code;
    return listed;
  }

  /** The meta-tools the client's search-mode list starts with (whatever its exposure now). */
  metaToolsFor(client: string): Tool[] {
    return this.metaTools(this.source.view(client));
  }

  /** The meta-tools of a search-mode list, `search_tools` naming the servers the client may use (serverDirectory.ts). */
  private metaTools(view: ClientView): Tool[] {
    const toolIndex = this.source.catalog().toolIndex;
    const byServer = new Map<string, string[]>();
    for (const tool of view.tools) {
      const origin = toolIndex.get(view.aliases.get(tool.name) ?? tool.name);
      if (!origin) continue;
      const names = byServer.get(origin.backendId) ?? [];
      if (names.length === 0) byServer.set(origin.backendId, names);
      names.push(origin.original);
    }
    const directory = serverDirectory([...byServer].map(([id, tools]) => ({ id, tools })));
    if (directory === '') return [...META_TOOLS];
    return META_TOOLS.map((tool) =>
      tool.name === SEARCH_TOOL ? { ...tool, description: `${tool.description ?? ''}\n${directory}` } : tool,
    );
  }

  /** The loaded tools a session's list adds: still visible to the client, not listed already. */
  private loadedFor(client: string, listed: ListedTools, loaded: LoadedTools | undefined): Tool[] {
    if (!loaded || loaded.size === 0 || this.source.view(client).exposure !== 'search+load') return [];
    const extra: Tool[] = [];
    for (const name of loaded.names()) {
      const tool = listed.byCatalogName.get(name);
      if (tool && !listed.names.has(tool.name) && !META_NAMES.has(tool.name)) extra.push(tool);
    }
    return extra;
  }
}

/**
 * Code mode's functions over the tools a client may use: `tools.<server>.<name
 * without the server's prefix>` calling the name the client sees; declared in
 * full while they fit DECLARATIONS_BUDGET.
 */
function codeToolsOf(
  catalog: Catalog,
  byCatalogName: Map<string, Tool>,
): CodeTools & { byCatalogName: Map<string, DeclaredTool> } {
  const namespaces: Record<string, Record<string, string>> = {};
  const declared = new Map<string, DeclaredTool>();
  for (const [catalogName, tool] of byCatalogName) {
    const origin = catalog.toolIndex.get(catalogName);
    if (!origin) continue;
    const prefix = `${catalog.prefixes.get(origin.backendId) ?? origin.backendId}${catalog.separator}`;
    const fn =
      tool.name.startsWith(prefix) && tool.name.length > prefix.length ? tool.name.slice(prefix.length) : tool.name;
    const namespace = (namespaces[origin.backendId] ??= {});
    namespace[fn] = tool.name;
    declared.set(catalogName, { namespace: origin.backendId, fn, tool });
  }
  const all = declareTools([...declared.values()]);
  return {
    namespaces,
    declarations: all.length <= DECLARATIONS_BUDGET ? all : undefined,
    count: declared.size,
    byCatalogName: declared,
  };
}
