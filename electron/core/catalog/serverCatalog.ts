/**
 * One server's catalog, for its own endpoint (`/servers/<id>/mcp`): the
 * server's items under its own names, built with the Catalog class from the
 * server's own CatalogInput with an empty prefix (so whatever shapes an input,
 * such as overrides, shapes this view too), and the two-way mapping to the
 * merged catalog that routing, policy and tasks work in. An item the merged
 * catalog does not hold (dropped there as a collision) has no mapping, so it
 * is left out here too: this view is a narrowing of the merged one, never a
 * way around it. Resources keep the server's own URIs: with one server there
 * is nothing to tell apart, and `mcp-proxy://<id>/<uri>` maps back one to one.
 */
import { buildCatalog, type Catalog, type CatalogInput, type ItemOrigin } from './catalog.js';
import { advertisedUri, parseAdvertisedUri } from './uris.js';

/** A server's listing without its skills. */
function withoutSkills(snapshot: CatalogInput['snapshot']): CatalogInput['snapshot'] {
  const { skills: _skills, skillFiles: _files, skillsDirectoryRead: _directoryRead, ...rest } = snapshot;
  return rest;
}

/** The item kinds that have names (resources and templates have URIs). */
export type NamedKind = 'tools' | 'prompts';

/** One server's items under its own names, mapped to and from the merged catalog. */
export class ServerCatalog {
  /** The server's items, prefix '' (its own names), built alone. */
  readonly own: Catalog;
  private readonly toMergedNames: Record<NamedKind, Map<string, string>>;
  private readonly toOwnNames: Record<NamedKind, Map<string, string>>;

  constructor(
    readonly backendId: string,
    /** The merged catalog this view narrows. */
    readonly merged: Catalog,
    /** The server's input to the merged catalog; undefined: not published (down, starting, refused). */
    input: CatalogInput | undefined,
    separator: string,
  ) {
    // Without its skills: their URIs and names are the merged catalog's, and this endpoint serves none
    // (so it declares no skills extension either: docs/skills.md).
    const own = input && { ...input, prefix: '', snapshot: withoutSkills(input.snapshot) };
    const inputs = own && merged.has(backendId) ? [own] : [];
    this.own = buildCatalog(inputs, { separator, maxItems: Number.MAX_SAFE_INTEGER }).catalog;
    this.toMergedNames = {
      tools: this.pair(this.own.toolIndex, merged.toolIndex),
      prompts: this.pair(this.own.promptIndex, merged.promptIndex),
    };
    this.toOwnNames = {
      tools: new Map([...this.toMergedNames.tools].map(([own, name]) => [name, own])),
      prompts: new Map([...this.toMergedNames.prompts].map(([own, name]) => [name, own])),
    };
  }

  /** Own name -> merged name, through the backend's original name. */
  private pair(own: Map<string, ItemOrigin>, merged: Map<string, ItemOrigin>): Map<string, string> {
    const mergedByOriginal = new Map<string, string>();
    for (const [name, origin] of merged) {
      if (origin.backendId === this.backendId) mergedByOriginal.set(origin.original, name);
    }
    const pairs = new Map<string, string>();
    for (const [name, origin] of own) {
      const mergedName = mergedByOriginal.get(origin.original);
      if (mergedName !== undefined) pairs.set(name, mergedName);
    }
    return pairs;
  }

  /** The merged name of one of this server's items by its own name; undefined when it has none. */
  mergedName(kind: NamedKind, name: string): string | undefined {
    return this.toMergedNames[kind].get(name);
  }

  /** The own name of a merged item; undefined when it is not this server's. */
  ownName(kind: NamedKind, mergedName: string): string | undefined {
    return this.toOwnNames[kind].get(mergedName);
  }

  /** The merged (advertised) form of one of this server's own URIs or URI templates. */
  advertised(uri: string): string {
    return advertisedUri(this.backendId, uri);
  }

  /** The server's own URI for an advertised one of this server; undefined for any other URI. */
  ownUri(uri: string): string | undefined {
    const parsed = parseAdvertisedUri(uri);
    return parsed?.backendId === this.backendId ? parsed.original : undefined;
  }
}
