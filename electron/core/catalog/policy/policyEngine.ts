/**
 * Decides what each client sees and may use. One rule set drives both the
 * lists (a client's view of the catalog) and every request (tools/call,
 * resources/read, prompts/get, completion/complete, resources/subscribe), so
 * a hidden item can never be reached by name. Precedence, first match wins:
 * backend disabled -> client profile (its backends, then its item overrides)
 * -> the backend's item rule -> the backend's default -> the global default.
 *
 * It also decides which exposure a client gets. `auto` resolves to `all`
 * while the client's full view fits its `maxTools` and `maxToolTokens`, and to
 * `search` beyond: Cursor uses only its first 40 tools, Windsurf 100, VS Code
 * 128, and every listed tool costs context on every turn.
 *
 * A profile's tool overrides (`policy.clients.<id>.overrides`) are laid on
 * here, in its view, over the server's (which the catalog applied): the
 * definition is made again from the catalog's source of the tool, and a
 * renamed tool's client name maps back to its catalog name through `aliases`,
 * as names shortened for `maxNameLength` do. A profile's name that another
 * tool of its view already has is not taken (the tool keeps its catalog name).
 */
import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/server';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import type { Catalog, ItemOrigin } from '../catalog.js';
import { exposedName, fitName } from '../naming.js';
import { ruleKindOf } from './itemKinds.js';
import { mergeOverrides } from '../overrides/mergeOverrides.js';
import { exposedTool, sourceKey, type AnyToolOverride } from '../overrides/toolSource.js';
import type { Exposure, ExposureInForce } from '../../../../shared/model/exposure.js';
import {
  LOCAL_CLIENT,
  type ClientProfile,
  type ItemKind,
  type Policy,
  type ToolRule,
} from '../../platform/config/policyConfig.js';
import { toolListTokens } from '../toolTokens.js';

/** What one client sees. */
export interface ClientView {
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplateType[];
  /** Skills (SEP-2640) under advertised URIs. */
  skills: Skill[];
  /** Exposed names / advertised URIs the client may use (catalog names, before `aliases`). */
  allowed: Record<ItemKind, Set<string>>;
  /** Tool and prompt names shortened for this client's `maxNameLength`: client name -> catalog name. */
  aliases: Map<string, string>;
  /**
   * How its tools are listed: `all`, or `search` / `search+load` (the
   * meta-tools; `tools` then holds every tool search may find, uncapped by `maxTools`).
   */
  exposure: ExposureInForce;
}

/** The exposure a client is set to (its profile's, else the policy's, else `all`). */
export function configuredExposure(policy: Policy, profile: ClientProfile | undefined): Exposure {
  return profile?.exposure ?? policy.exposure ?? 'all';
}

/** The exposure in force for a client whose full (uncapped) view is `tools`. */
function resolveExposure(policy: Policy, profile: ClientProfile | undefined, tools: readonly Tool[]): ExposureInForce {
  const setting = configuredExposure(policy, profile);
  if (setting !== 'auto') return setting;
  if (profile?.maxTools !== undefined && tools.length > profile.maxTools) return 'search';
  if (profile?.maxToolTokens !== undefined && toolListTokens(tools) > profile.maxToolTokens) return 'search';
  return 'all';
}

/**
 * The level of the policy that decided a rule, highest precedence first:
 * the backend is disabled; the client has no profile; the client's profile
 * does not list the backend; the client's own rule for the item; the item's
 * rule for everyone; the backend's default; the global default.
 */
export type DecisionSource =
  'backendDisabled' | 'unknownClient' | 'clientBackends' | 'clientItem' | 'item' | 'backendDefault' | 'globalDefault';

/** A rule and the level that decided it. */
export interface Decision {
  rule: ToolRule;
  source: DecisionSource;
}

/**
 * Items withheld for everyone, whatever the rules: a tool whose definition
 * changed (a pinned change), or every item of a quarantined server, until the
 * user approves. A withheld item is answered as an unknown one.
 */
export type WithheldItems = (backendId: string, kind: ItemKind, original: string) => boolean;

/**
 * The rule for one item, for one client, and the level that decided it: the
 * policy's precedence, in this one place (see the file header).
 */
export function decideRule(
  policy: Policy,
  client: string,
  kind: ItemKind,
  backendId: string,
  original: string,
): Decision {
  const backend = policy.backends[backendId];
  if (backend?.enabled === false) return { rule: 'deny', source: 'backendDisabled' };
  if (client !== LOCAL_CLIENT) {
    const profile = policy.clients[client];
    if (!profile) return { rule: 'deny', source: 'unknownClient' };
    if (profile.backends && !profile.backends.includes(backendId)) return { rule: 'deny', source: 'clientBackends' };
    const override = profile.items?.[backendId]?.[kind]?.[original];
    if (override) return { rule: override, source: 'clientItem' };
  }
  const own = backend?.[kind]?.[original];
  if (own) return { rule: own, source: 'item' };
  if (backend?.defaultRule) return { rule: backend.defaultRule, source: 'backendDefault' };
  return { rule: policy.defaultRule, source: 'globalDefault' };
}

/** The policy in force, with per-client views cached per catalog. */
export class PolicyEngine {
  private views = new Map<string, ClientView>();
  private viewsOf: Catalog | undefined;

  constructor(
    private policy: Policy,
    private readonly withheld: WithheldItems = () => false,
  ) {}

  /** The policy in force. */
  get current(): Policy {
    return this.policy;
  }

  /** Replaces the policy (views are rebuilt on next use). */
  replace(policy: Policy): void {
    this.policy = policy;
    this.invalidate();
  }

  /** Drops cached views (policy, pins or catalog changed). */
  invalidate(): void {
    this.views.clear();
    this.viewsOf = undefined;
  }

  /** Whether a client ID names a known client. */
  knows(client: string): boolean {
    return client === LOCAL_CLIENT || this.policy.clients[client] !== undefined;
  }

  /** The rule for one item, for one client (`decide(...).rule`). */
  rule(client: string, kind: ItemKind, backendId: string, original: string): ToolRule {
    return this.decide(client, kind, backendId, original).rule;
  }

  /**
   * The rule for one item, for one client, and the level that decided it.
   * The precedence lives here only (see the file header).
   */
  decide(client: string, kind: ItemKind, backendId: string, original: string): Decision {
    return decideRule(this.policy, client, kind, backendId, original);
  }

  /** The override in force for a client's tool (catalog name): the server's, with the profile's laid on top. */
  toolOverride(client: string, catalog: Catalog, name: string): AnyToolOverride | undefined {
    const server = catalog.toolOverrides.get(name);
    return mergeOverrides(server, this.profileOverride(client, catalog, name));
  }

  /** The name a client sees for a tool (catalog name): its profile's rename or shortened name, else the catalog's. */
  clientName(client: string, catalog: Catalog, name: string): string {
    for (const [alias, target] of this.view(client, catalog).aliases) if (target === name) return alias;
    return name;
  }

  /** The profile's own override of a tool (catalog name), under the section its source belongs to. */
  private profileOverride(client: string, catalog: Catalog, name: string): AnyToolOverride | undefined {
    if (client === LOCAL_CLIENT) return undefined;
    const origin = catalog.toolIndex.get(name);
    const source = catalog.toolSources.get(name);
    const own = origin && this.policy.clients[client]?.overrides?.[origin.backendId];
    if (!own || !source) return undefined;
    const section =
      source.via === 'tool' ? own.tools : source.via === 'prompt' ? own.promptsAsTools : own.resourcesAsTools;
    return section?.[sourceKey(source)];
  }

  /** A client's view of the catalog: denied items removed, the tool cap applied. */
  view(client: string, catalog: Catalog): ClientView {
    if (this.viewsOf !== catalog) {
      this.views.clear();
      this.viewsOf = catalog;
    }
    let view = this.views.get(client);
    if (!view) {
      view = this.buildView(client, catalog);
      this.views.set(client, view);
    }
    return view;
  }

  private buildView(client: string, catalog: Catalog): ClientView {
    const visible = (kind: ItemKind, origin: ItemOrigin | undefined): boolean =>
      origin !== undefined &&
      !this.withheld(origin.backendId, ruleKindOf(kind, origin), origin.original) &&
      this.rule(client, ruleKindOf(kind, origin), origin.backendId, origin.original) !== 'deny';
    let tools = catalog.tools.filter((tool) => visible('tools', catalog.toolIndex.get(tool.name)));
    const aliases = new Map<string, string>();
    tools = this.withProfileOverrides(client, catalog, tools, aliases);
    const profile = client === LOCAL_CLIENT ? undefined : this.policy.clients[client];
    // The tool cap is for clients that list everything; search reaches every tool.
    const exposure = resolveExposure(this.policy, profile, tools);
    if (profile?.maxTools !== undefined && exposure === 'all') tools = tools.slice(0, profile.maxTools);
    const prompts = catalog.prompts.filter((prompt) => visible('prompts', catalog.promptIndex.get(prompt.name)));
    const resources = catalog.resources.filter((resource) =>
      visible('resources', catalog.resourceIndex.get(resource.uri)),
    );
    const resourceTemplates = catalog.resourceTemplates.filter((template) =>
      visible('resourceTemplates', catalog.templateIndex.get(template.uriTemplate)),
    );
    const skills = catalog.skills.filter((skill) => visible('skills', catalog.skillIndex.get(skill.uri)));
    const allowed = {
      tools: new Set(tools.map((tool) => aliases.get(tool.name) ?? tool.name)),
      prompts: new Set(prompts.map((prompt) => prompt.name)),
      resources: new Set(resources.map((resource) => resource.uri)),
      resourceTemplates: new Set(resourceTemplates.map((template) => template.uriTemplate)),
      skills: new Set(skills.map((skill) => skill.uri)),
    };
    const budget = client === LOCAL_CLIENT ? undefined : this.policy.clients[client]?.maxNameLength;
    if (budget !== undefined) {
      const fit = <T extends { name: string }>(item: T): T => {
        const name = fitName(item.name, budget);
        if (name === item.name) return item;
        aliases.set(name, aliases.get(item.name) ?? item.name);
        aliases.delete(item.name);
        return { ...item, name };
      };
      tools = tools.map(fit);
      return { tools, prompts: prompts.map(fit), resources, resourceTemplates, skills, allowed, aliases, exposure };
    }
    return { tools, prompts, resources, resourceTemplates, skills, allowed, aliases, exposure };
  }

  /**
   * The client's tools with its profile's overrides laid on (see the file
   * header); `aliases` learns each renamed tool's client name.
   */
  private withProfileOverrides(client: string, catalog: Catalog, tools: Tool[], aliases: Map<string, string>): Tool[] {
    const own = client === LOCAL_CLIENT ? undefined : this.policy.clients[client]?.overrides;
    if (!own || Object.keys(own).length === 0) return tools;
    const taken = new Set(tools.map((tool) => tool.name));
    return tools.map((tool) => {
      const profile = this.profileOverride(client, catalog, tool.name);
      const source = catalog.toolSources.get(tool.name);
      const origin = catalog.toolIndex.get(tool.name);
      if (!profile || !source || !origin) return tool;
      const merged = mergeOverrides(catalog.toolOverrides.get(tool.name), profile);
      let name = tool.name;
      if (profile.name !== undefined) {
        const prefix = catalog.prefixes.get(origin.backendId) ?? origin.backendId;
        const wanted = exposedName(origin.backendId, prefix, catalog.separator, profile.name);
        if (!taken.has(wanted)) {
          taken.add(wanted);
          aliases.set(wanted, tool.name);
          name = wanted;
        }
      }
      return { ...exposedTool(source, merged, name), _meta: tool._meta };
    });
  }
}
