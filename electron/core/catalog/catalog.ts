/**
 * The merged catalog: every admitted backend's items under exposed names and
 * advertised URIs, with lookup tables for routing. Who owns a name is decided
 * by the config, never by which server started first: the catalog is built in
 * config order (CatalogOptions.owners), an empty-prefix backend's item that
 * takes another configured backend's namespace (`other__echo`) is dropped, and
 * an item whose name a backend earlier in the config already exposes is
 * dropped too; each drop is a warning on the losing backend naming the item
 * and the winner. An item with an empty name is refused the same way. Two
 * names of one backend that sanitise to one still refuse that backend.
 *
 * Tools are listed backend by backend in config order, each backend's in name
 * order, so a tools/list does not depend on the order a server lists in.
 *
 * A backend's overrides (CatalogInput.overrides, catalog/overrides/) are
 * applied here, so every catalog built from an input shows them: a tool's
 * override name replaces its original before the prefix, and prompts and
 * resources offered as tools join its tools under the same naming and
 * collision rules (a name an override brings that clashes within the backend
 * drops that item with a warning rather than refusing the backend).
 */
import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/client';
import { UriTemplate } from '@modelcontextprotocol/client';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';
import type { BackendCatalog } from '../backends/connection/backendConnection.js';
import { exposedName } from './naming.js';
import type { ServerOverrides } from '../platform/config/overridesConfig.js';
import { argumentProblems } from './overrides/argumentValues.js';
import { exposedTool, type AnyToolOverride, type ToolSource } from './overrides/toolSource.js';
import { advertisedUri, parseAdvertisedUri, unsupportedTemplateReason } from './uris.js';
import { SkillFolders, stageSkills } from './skills.js';

/** Where an exposed item comes from. */
export interface ItemOrigin {
  backendId: string;
  /** The backend's own name (tools, prompts) or URI (resources, templates). */
  original: string;
  /** A tool that is the backend's prompt or resource offered as a tool (`original` is its name or URI). */
  via?: 'prompt' | 'resource';
}

/** A resource template that routes reads of its instances. */
export interface RoutedTemplate extends ItemOrigin {
  advertised: string;
  matcher: UriTemplate;
}

/** One admitted backend's contribution to the catalog. */
export interface CatalogInput {
  backendId: string;
  prefix: string;
  snapshot: BackendCatalog;
  /** What the model sees of its items instead (the server's `overrides`; a profile's are laid on in its view). */
  overrides?: ServerOverrides | undefined;
}

/** A configured backend and its prefix, in config order. */
export interface NameOwner {
  backendId: string;
  prefix: string;
}

/** Options that shape the catalog. */
export interface CatalogOptions {
  separator: string;
  maxItems: number;
  /**
   * Every configured backend, in config order, started or not: the build
   * follows this order, and a backend's prefix is its own namespace. Absent:
   * the order given, no namespace reserved (tests of the catalog alone).
   */
  owners?: readonly NameOwner[];
}

/** Key under which each exposed item names its origin in `_meta`. */
export const ORIGIN_META_KEY = 'io.github.mcp-switchboard/origin';

/** An immutable merged catalog. */
export class Catalog {
  readonly tools: Tool[] = [];
  /** Exposed tool definitions by exposed name. */
  readonly toolByName = new Map<string, Tool>();
  readonly prompts: Prompt[] = [];
  readonly resources: Resource[] = [];
  readonly resourceTemplates: ResourceTemplateType[] = [];
  /** Skills (SEP-2640) under advertised URIs (skills.ts). */
  readonly skills: Skill[] = [];
  /** Advertised SKILL.md URI -> origin (`original` is the skill's name, which its rules name). */
  readonly skillIndex = new Map<string, ItemOrigin>();
  /** Skill name -> origin: names are unique across the catalog. */
  readonly skillNames = new Map<string, ItemOrigin>();
  /** Where each skill folder lives, for reads of its files. */
  readonly skillFolders = new SkillFolders();
  /** Backends that declared the skills extension (with or without skills). */
  readonly skillBackends = new Set<string>();
  /** Those of them that serve `resources/directory/read` on their skill folders. */
  readonly skillDirectoryBackends = new Set<string>();
  readonly toolIndex = new Map<string, ItemOrigin>();
  readonly promptIndex = new Map<string, ItemOrigin>();
  readonly resourceIndex = new Map<string, ItemOrigin>();
  readonly templateIndex = new Map<string, RoutedTemplate>();
  /** Per backend: its original resource URIs and its routed templates. */
  readonly byBackend = new Map<string, { uris: Set<string>; templates: RoutedTemplate[] }>();
  /** Per backend: templates that were refused, with the reason. */
  readonly warnings = new Map<string, string[]>();
  /** By exposed tool name: what the tool is made from (a profile's override is re-applied to it). */
  readonly toolSources = new Map<string, ToolSource>();
  /** By exposed tool name: the server's override in force (absent: none). */
  readonly toolOverrides = new Map<string, AnyToolOverride>();
  /** Per backend: its prefix; with `separator`, how a profile's override name is exposed. */
  readonly prefixes = new Map<string, string>();
  separator = '__';

  /** Total number of exposed items. */
  get size(): number {
    return (
      this.tools.length +
      this.prompts.length +
      this.resources.length +
      this.resourceTemplates.length +
      this.skills.length
    );
  }

  /** Item counts of one backend. */
  countsOf(backendId: string): { tools: number; resources: number; resourceTemplates: number; prompts: number } {
    const count = (index: Map<string, ItemOrigin>): number =>
      [...index.values()].filter((origin) => origin.backendId === backendId).length;
    return {
      tools: count(this.toolIndex),
      prompts: count(this.promptIndex),
      resources: count(this.resourceIndex),
      resourceTemplates: count(this.templateIndex),
    };
  }

  /**
   * The templates an advertised URI is an instance of (parsed into backend and
   * original URI); undefined when the URI is not one of a known backend's.
   */
  templatesMatching(uri: string): { backendId: string; original: string; templates: RoutedTemplate[] } | undefined {
    const parsed = parseAdvertisedUri(uri);
    const entry = parsed ? this.byBackend.get(parsed.backendId) : undefined;
    if (!parsed || !entry) return undefined;
    return { ...parsed, templates: matchingTemplates(entry.templates, parsed.original) };
  }

  /** Whether a backend's items are in the catalog. */
  has(backendId: string): boolean {
    return this.byBackend.has(backendId);
  }

  /**
   * Adds one backend's items, all or nothing. Throws `name_collision`
   * or `catalog_limit` and leaves the catalog unchanged.
   */
  admit(input: CatalogInput, options: CatalogOptions): void {
    const staged = stage(input, options);
    if (staged.internalCollisions.length > 0) {
      const problems = staged.internalCollisions;
      throw new SwitchboardError(ErrorCode.NameCollision, problems.join('; '), { backend: input.backendId, problems });
    }
    // A name already exposed belongs to the backend admitted before, which is earlier in the config.
    const taken = (name: string, own: Map<string, ItemOrigin>, other: Map<string, ItemOrigin>) =>
      own.get(name) ?? other.get(name);
    for (const [kind, items, exposed, own, other] of [
      ['tool', staged.tools, staged.exposedTools, this.toolIndex, this.promptIndex],
      ['prompt', staged.prompts, staged.exposedPrompts, this.promptIndex, this.toolIndex],
    ] as const) {
      for (const [name, origin] of [...items]) {
        const owner = taken(name, own, other);
        if (!owner) continue;
        items.delete(name);
        const at = exposed.findIndex((item) => item.name === name);
        if (at >= 0) exposed.splice(at, 1);
        staged.warnings.push(`${collision(kind, name, origin, owner)}; "${owner.backendId}" keeps it`);
      }
    }
    // Original URIs may repeat across backends (two memory servers, two accounts of one service): each is
    // advertised as mcp-proxy://<id>/<uri>, so they never clash, and reads, links and subscriptions
    // resolve against the backend that produced them.
    const skills = stageSkills(
      input.backendId,
      input.snapshot.skills ?? [],
      (name) => this.skillNames.get(name),
      staged.warnings,
    );
    // A listed file of a skill is advertised under the skill's URI, as skills/list names it.
    const folders = new SkillFolders();
    for (const skill of skills) folders.add(skill.folder);
    for (const resource of staged.resources) {
      const uri = folders.advertise(input.backendId, resource.original);
      if (uri !== undefined) resource.exposed = { ...resource.exposed, uri };
    }
    const added =
      staged.tools.size + staged.prompts.size + staged.resources.length + staged.templates.length + skills.length;
    if (this.size + added > options.maxItems) {
      throw new SwitchboardError(
        ErrorCode.CatalogLimit,
        `backend "${input.backendId}" brings ${added} items; with the ${this.size} already exposed that exceeds maxCatalogItems (${options.maxItems})`,
        { backend: input.backendId, items: added, maxCatalogItems: options.maxItems },
      );
    }
    // A backend's tools in name order (code points), whatever order it lists them in: every tools/list is
    // the same across restarts and replicas (the 2026-07-28 specification recommends it for prompt caching).
    const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
    staged.exposedTools.sort((a, b) => byName(a.name, b.name));
    for (const name of [...staged.tools.keys()].sort(byName)) this.toolIndex.set(name, staged.tools.get(name)!);
    for (const tool of staged.exposedTools) {
      const source = staged.sources.get(tool.name);
      if (source) this.toolSources.set(tool.name, source);
      const override = staged.overrides.get(tool.name);
      if (override) this.toolOverrides.set(tool.name, override);
    }
    this.prefixes.set(input.backendId, input.prefix);
    this.separator = options.separator;
    for (const [name, origin] of staged.prompts) this.promptIndex.set(name, origin);
    this.tools.push(...staged.exposedTools);
    for (const tool of staged.exposedTools) this.toolByName.set(tool.name, tool);
    this.prompts.push(...staged.exposedPrompts);
    for (const resource of staged.resources) {
      this.resources.push(resource.exposed);
      this.resourceIndex.set(resource.exposed.uri, { backendId: input.backendId, original: resource.original });
    }
    for (const template of staged.templates) {
      this.resourceTemplates.push(template.exposed);
      this.templateIndex.set(template.routed.advertised, template.routed);
    }
    for (const skill of skills) {
      this.skills.push(skill.exposed);
      this.skillIndex.set(skill.folder.skill, skill.origin);
      this.skillNames.set(skill.origin.original, skill.origin);
      this.skillFolders.add(skill.folder);
    }
    if (input.snapshot.skills) this.skillBackends.add(input.backendId);
    if (input.snapshot.skills && input.snapshot.skillsDirectoryRead) this.skillDirectoryBackends.add(input.backendId);
    this.byBackend.set(input.backendId, {
      uris: new Set(staged.uris),
      templates: staged.templates.map((template) => template.routed),
    });
    if (staged.warnings.length > 0) this.warnings.set(input.backendId, staged.warnings);
  }
}

/** The templates a backend's own URI is an instance of. */
export function matchingTemplates(templates: RoutedTemplate[], original: string): RoutedTemplate[] {
  return templates.filter((template) => template.matcher.match(original) !== null);
}

/** The inputs in config order; backends the config does not name keep their order, after the others. */
function inConfigOrder(inputs: CatalogInput[], owners: readonly NameOwner[] | undefined): CatalogInput[] {
  if (!owners) return inputs;
  const rank = new Map(owners.map((owner, index) => [owner.backendId, index]));
  const rankOf = (input: CatalogInput): number => rank.get(input.backendId) ?? owners.length;
  return inputs
    .map((input, index) => ({ input, index }))
    .sort((a, b) => rankOf(a.input) - rankOf(b.input) || a.index - b.index)
    .map(({ input }) => input);
}

/** Builds a catalog from backends in config order (else as given); refused ones are returned with their errors. */
export function buildCatalog(
  inputs: CatalogInput[],
  options: CatalogOptions,
): { catalog: Catalog; refused: Map<string, SwitchboardError> } {
  const catalog = new Catalog();
  const refused = new Map<string, SwitchboardError>();
  for (const input of inConfigOrder(inputs, options.owners)) {
    try {
      catalog.admit(input, options);
    } catch (error) {
      if (!(error instanceof SwitchboardError)) throw error;
      refused.set(input.backendId, error);
    }
  }
  return { catalog, refused };
}

function collision(kind: string, name: string, origin: ItemOrigin, other: ItemOrigin): string {
  return (
    `${kind} "${origin.original}" of backend "${origin.backendId}" and "${other.original}" of backend ` +
    `"${other.backendId}" would both be exposed as "${name}"; give one backend another prefix`
  );
}

/**
 * The configured backend whose namespace (`<prefix><separator>`) an exposed
 * name of an empty-prefix backend falls in, if any: that backend owns it.
 */
function namespaceOwner(name: string, input: CatalogInput, options: CatalogOptions): NameOwner | undefined {
  if (input.prefix !== '') return undefined;
  return options.owners?.find(
    (owner) =>
      owner.backendId !== input.backendId &&
      owner.prefix !== '' &&
      name.startsWith(`${owner.prefix}${options.separator}`),
  );
}

/** `item` as clients receive it: naming its origin in `_meta` (what its token count must include too). */
export function withOrigin<T extends { _meta?: Record<string, unknown> | undefined }>(item: T, origin: ItemOrigin): T {
  const meta = { backend: origin.backendId, name: origin.original, ...(origin.via ? { via: origin.via } : {}) };
  return { ...item, _meta: { ...item._meta, [ORIGIN_META_KEY]: meta } };
}

/** Computes one backend's exposed items without touching the catalog. */
function stage(input: CatalogInput, options: CatalogOptions) {
  const { backendId, prefix, snapshot } = input;
  const tools = new Map<string, ItemOrigin>();
  const prompts = new Map<string, ItemOrigin>();
  const exposedTools: Tool[] = [];
  const exposedPrompts: Prompt[] = [];
  const internalCollisions: string[] = [];
  const warnings: string[] = [];
  const nameItems = <T extends { name: string; _meta?: Record<string, unknown> | undefined }>(
    items: T[],
    kind: string,
    into: Map<string, ItemOrigin>,
    out: T[],
  ) => {
    for (const item of items) {
      if (typeof item.name !== 'string' || item.name === '') {
        warnings.push(`a ${kind} with an empty name refused`);
        continue;
      }
      const name = exposedName(backendId, prefix, options.separator, item.name);
      const origin = { backendId, original: item.name };
      const owner = namespaceOwner(name, input, options);
      if (owner) {
        warnings.push(
          `${kind} "${item.name}" dropped: it imitates backend "${owner.backendId}", whose prefix "${owner.prefix}" owns the names "${owner.prefix}${options.separator}..."`,
        );
        continue;
      }
      const other = into.get(name);
      if (other) {
        // The same name listed twice is a server bug we tolerate; two names
        // that sanitise to one are a collision the user must see.
        if (other.original !== item.name) internalCollisions.push(collision(kind, name, origin, other));
        continue;
      }
      into.set(name, origin);
      out.push(withOrigin({ ...item, name }, origin));
    }
  };
  const sources = new Map<string, ToolSource>();
  const overrides = new Map<string, AnyToolOverride>();
  for (const entry of toolEntries(input, warnings)) {
    const origin: ItemOrigin = { backendId, original: entry.key, ...(entry.via ? { via: entry.via } : {}) };
    const name = exposedName(backendId, prefix, options.separator, entry.override?.name ?? entry.key);
    const owner = namespaceOwner(name, input, options);
    if (owner) {
      warnings.push(
        `${entry.label} dropped: it imitates backend "${owner.backendId}", whose prefix "${owner.prefix}" owns the names "${owner.prefix}${options.separator}..."`,
      );
      continue;
    }
    const other = tools.get(name);
    if (other) {
      const sameItem = other.original === entry.key && other.via === origin.via;
      if (sameItem) continue;
      // Names the config brought drop the item; two server names that sanitise to one refuse the backend.
      const configured =
        entry.override?.name !== undefined ||
        entry.via !== undefined ||
        other.via !== undefined ||
        overrides.get(name)?.name !== undefined;
      if (configured) warnings.push(`${entry.label} dropped: ${collision('tool', name, origin, other)}`);
      else internalCollisions.push(collision('tool', name, origin, other));
      continue;
    }
    tools.set(name, origin);
    sources.set(name, entry.source);
    if (entry.override) overrides.set(name, entry.override);
    exposedTools.push(withOrigin(exposedTool(entry.source, entry.override, name), origin));
  }
  nameItems(snapshot.prompts, 'prompt', prompts, exposedPrompts);

  const uris: string[] = [];
  const resources: { original: string; exposed: Resource }[] = [];
  for (const resource of snapshot.resources) {
    if (uris.includes(resource.uri)) continue;
    uris.push(resource.uri);
    const origin = { backendId, original: resource.uri };
    resources.push({
      original: resource.uri,
      exposed: withOrigin({ ...resource, uri: advertisedUri(backendId, resource.uri) }, origin),
    });
  }
  const templates: { exposed: ResourceTemplateType; routed: RoutedTemplate }[] = [];
  for (const template of snapshot.resourceTemplates) {
    const reason = unsupportedTemplateReason(template.uriTemplate);
    if (reason !== undefined) {
      warnings.push(`resource template "${template.uriTemplate}" refused: ${reason}`);
      continue;
    }
    const advertised = advertisedUri(backendId, template.uriTemplate);
    if (templates.some((existing) => existing.routed.advertised === advertised)) continue;
    const origin = { backendId, original: template.uriTemplate };
    templates.push({
      exposed: withOrigin({ ...template, uriTemplate: advertised }, origin),
      routed: { ...origin, advertised, matcher: new UriTemplate(template.uriTemplate) },
    });
  }
  return {
    tools,
    prompts,
    exposedTools,
    exposedPrompts,
    internalCollisions,
    uris,
    resources,
    templates,
    warnings,
    sources,
    overrides,
  };
}

/** One tool to name: the backend's own (with its override), or a prompt or resource offered as a tool. */
interface ToolEntry {
  key: string;
  via?: 'prompt' | 'resource';
  source: ToolSource;
  override: AnyToolOverride | undefined;
  label: string;
}

/**
 * The backend's tools with their overrides (a fixed value or default its
 * schema refuses is a warning), then the prompts and resources its overrides
 * offer as tools; an offered item the backend does not serve is a warning.
 */
function toolEntries(input: CatalogInput, warnings: string[]): ToolEntry[] {
  const { snapshot, overrides } = input;
  const entries: ToolEntry[] = [];
  for (const tool of snapshot.tools) {
    if (typeof tool.name !== 'string' || tool.name === '') {
      warnings.push('a tool with an empty name refused');
      continue;
    }
    const override = overrides?.tools?.[tool.name];
    for (const problem of argumentProblems(tool.inputSchema, override?.arguments))
      warnings.push(`override of tool "${tool.name}": ${problem.path}: ${problem.message}`);
    entries.push({ key: tool.name, source: { via: 'tool', tool }, override, label: `tool "${tool.name}"` });
  }
  for (const [name, override] of Object.entries(overrides?.promptsAsTools ?? {})) {
    const prompt = snapshot.prompts.find((item) => item.name === name);
    if (!prompt) warnings.push(`prompt "${name}" offered as a tool is not served by the backend`);
    else
      entries.push({
        key: name,
        via: 'prompt',
        source: { via: 'prompt', prompt },
        override,
        label: `prompt "${name}" as a tool`,
      });
  }
  for (const [uri, override] of Object.entries(overrides?.resourcesAsTools ?? {})) {
    const resource = snapshot.resources.find((item) => item.uri === uri);
    if (!resource) warnings.push(`resource "${uri}" offered as a tool is not served by the backend`);
    else
      entries.push({
        key: uri,
        via: 'resource',
        source: { via: 'resource', resource },
        override: { name: resource.name, ...override },
        label: `resource "${uri}" as a tool`,
      });
  }
  return entries;
}
