/**
 * Name mapping and policy for one request, done once: the exposed name or URI
 * is looked up in one catalog snapshot, the policy decides on it, and the
 * result (origin, rule, snapshot) is handed down the request path, so no step
 * after this one reads the catalog again. An unknown or denied item answers
 * invalid-params (-32602), as the spec asks for unknown tools, prompts and
 * resources (2026-07-28: "unknown resource is -32602").
 */
import type { CompleteRequestParams, Tool } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Catalog, ItemOrigin } from '../../catalog/catalog.js';
import type { ItemKind, ToolRule } from '../../platform/config/policyConfig.js';
import type { AuditDecision } from '../../catalog/policy/auditEntry.js';
import { unknownItem } from './protocolErrors.js';

/**
 * The policy's decision for one item of a catalog snapshot, with the level
 * that decided it (kept for the request log); `deny` must answer exactly
 * like an unknown item.
 */
export type Authorize = (client: string, catalog: Catalog, kind: ItemKind, key: string) => AuditDecision;

/** One request's item, resolved once. */
export interface Resolution {
  /** The snapshot the item was found in; its result is rewritten against the same one. */
  catalog: Catalog;
  client: string;
  /** The name or URI the client used. */
  exposed: string;
  /** The owning backend and its own name or URI. */
  origin: ItemOrigin;
  /** The policy's decision (`deny` answers like an unknown item). */
  rule: ToolRule;
  /** The rule and the level that decided it, for the request log. */
  decision: AuditDecision;
  /** tools/call: the tool's listed definition (for header mirroring). */
  tool?: Tool | undefined;
}

/** The server's own definition of a tool (what its headers mirror), not the overridden one the client sees. */
function upstreamTool(catalog: Catalog, name: string): Tool | undefined {
  const source = catalog.toolSources.get(name);
  return source ? (source.via === 'tool' ? source.tool : undefined) : catalog.toolByName.get(name);
}

/** A completion target resolved: the item, and the `ref` the backend understands. */
export interface CompletionResolution extends Resolution {
  ref: CompleteRequestParams['ref'];
}

/** Looks up exposed names and URIs and asks the policy; see the module comment. */
export class ItemResolver {
  constructor(private readonly authorize: Authorize) {}

  /** A tool by exposed name; undefined when the catalog has no such tool. */
  tool(catalog: Catalog, client: string, name: string): Resolution | undefined {
    const origin = catalog.toolIndex.get(name);
    if (!origin) return undefined;
    const decision = this.authorize(client, catalog, 'tools', name);
    return {
      catalog,
      client,
      exposed: name,
      origin,
      rule: decision.rule,
      decision,
      tool: upstreamTool(catalog, name),
    };
  }

  /** A prompt by exposed name; undefined when the catalog has no such prompt. */
  prompt(catalog: Catalog, client: string, name: string): Resolution | undefined {
    const origin = catalog.promptIndex.get(name);
    if (!origin) return undefined;
    const decision = this.authorize(client, catalog, 'prompts', name);
    return { catalog, client, exposed: name, origin, rule: decision.rule, decision };
  }

  /**
   * The backend and original URI for an advertised URI: an exact listed
   * resource, or an instance of exactly one of the backend's templates, each
   * as far as the client may see it (a denied template is not even counted
   * when deciding whether a URI is ambiguous, so its existence cannot leak).
   * Throws for an unknown, denied or ambiguous URI.
   */
  resource(catalog: Catalog, client: string, uri: string): Resolution {
    const exact = catalog.resourceIndex.get(uri);
    if (exact) {
      const decision = this.authorize(client, catalog, 'resources', uri);
      if (decision.rule !== 'deny')
        return { catalog, client, exposed: uri, origin: exact, rule: decision.rule, decision };
    }
    const inSkill = this.skillFile(catalog, client, uri);
    if (inSkill) return inSkill;
    const parsed = catalog.templatesMatching(uri);
    if (!parsed) throw unknownItem('resource', uri);
    const matches = parsed.templates
      .map((template) => ({
        template,
        decision: this.authorize(client, catalog, 'resourceTemplates', template.advertised),
      }))
      .filter((match) => match.decision.rule !== 'deny');
    if (matches.length === 0) throw unknownItem('resource', uri);
    if (matches.length > 1) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Ambiguous resource: ${uri} matches ${matches.length} templates (${matches.map((m) => m.template.advertised).join(', ')})`,
      );
    }
    const origin = { backendId: parsed.backendId, original: parsed.original };
    const { decision } = matches[0]!;
    return { catalog, client, exposed: uri, origin, rule: decision.rule, decision };
  }

  /**
   * A file of a skill (its SKILL.md or one below its folder) by advertised
   * URI, decided by the skill's rule; undefined when the URI is in no skill
   * folder or the skill is denied (answered as unknown).
   */
  skillFile(catalog: Catalog, client: string, uri: string): Resolution | undefined {
    const found = catalog.skillFolders.resolve(uri);
    if (!found) return undefined;
    const decision = this.authorize(client, catalog, 'skills', found.folder.skill);
    if (decision.rule === 'deny') return undefined;
    const origin = { backendId: found.folder.backendId, original: found.original };
    return { catalog, client, exposed: uri, origin, rule: decision.rule, decision };
  }

  /** A completion's prompt or resource template (or resource); throws when unknown or denied. */
  completion(catalog: Catalog, client: string, ref: CompleteRequestParams['ref']): CompletionResolution {
    if (ref.type === 'ref/prompt') {
      const resolved = this.prompt(catalog, client, ref.name);
      if (!resolved || resolved.rule === 'deny') throw unknownItem('prompt', ref.name);
      return { ...resolved, ref: { ...ref, name: resolved.origin.original } };
    }
    const template = catalog.templateIndex.get(ref.uri);
    const origin = template ?? catalog.resourceIndex.get(ref.uri);
    const decision = origin
      ? this.authorize(client, catalog, template ? 'resourceTemplates' : 'resources', ref.uri)
      : undefined;
    if (!origin || !decision || decision.rule === 'deny') throw unknownItem('resource template', ref.uri);
    const resolved = { catalog, client, exposed: ref.uri, origin, rule: decision.rule, decision };
    return { ...resolved, ref: { ...ref, uri: origin.original } };
  }
}
