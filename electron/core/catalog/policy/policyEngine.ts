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
 */
import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/server';
import type { Catalog, ItemOrigin } from '../catalog.js';
import { fitName } from '../naming.js';
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
      !this.withheld(origin.backendId, kind, origin.original) &&
      this.rule(client, kind, origin.backendId, origin.original) !== 'deny';
    let tools = catalog.tools.filter((tool) => visible('tools', catalog.toolIndex.get(tool.name)));
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
    const allowed = {
      tools: new Set(tools.map((tool) => tool.name)),
      prompts: new Set(prompts.map((prompt) => prompt.name)),
      resources: new Set(resources.map((resource) => resource.uri)),
      resourceTemplates: new Set(resourceTemplates.map((template) => template.uriTemplate)),
    };
    const aliases = new Map<string, string>();
    const budget = client === LOCAL_CLIENT ? undefined : this.policy.clients[client]?.maxNameLength;
    if (budget !== undefined) {
      const fit = <T extends { name: string }>(item: T): T => {
        const name = fitName(item.name, budget);
        if (name === item.name) return item;
        aliases.set(name, item.name);
        return { ...item, name };
      };
      tools = tools.map(fit);
      return { tools, prompts: prompts.map(fit), resources, resourceTemplates, allowed, aliases, exposure };
    }
    return { tools, prompts, resources, resourceTemplates, allowed, aliases, exposure };
  }
}
