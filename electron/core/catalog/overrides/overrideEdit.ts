/**
 * Saving one item's override: where it lives in the config (a server's own,
 * or a profile's for that server), what is wrong with it before anything is
 * written (its shape, and each fixed value or default against the tool's
 * input schema, named by dotted path), and the edit of the raw document the
 * config owner writes. The CLI and the core's overrides service both use it.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { BackendCatalog } from '../../backends/connection/backendConnection.js';
import {
  ItemAsToolSchema,
  ToolOverrideSchema,
  type OverrideSection,
  type ServerOverrides,
  type ToolOverride,
} from '../../platform/config/overridesConfig.js';
import type { ConfigProblem } from '../../platform/config/schema.js';
import { argumentProblems } from './argumentValues.js';
import type { AnyToolOverride, ToolSource } from './toolSource.js';

/** One item's override: a server's (no profile) or one profile's for that server. */
export interface OverrideTarget {
  backendId: string;
  section: OverrideSection;
  /** The item's ORIGINAL name (tools, prompts) or URI (resources). */
  original: string;
  profile?: string | undefined;
}

/** The dotted path of the container of an override in the config file (keys may hold dots: shown as they are). */
export function overridePath(target: OverrideTarget): string[] {
  const within = [target.section, target.original];
  return target.profile === undefined
    ? ['mcpServers', target.backendId, 'overrides', ...within]
    : ['policy', 'clients', target.profile, 'overrides', target.backendId, ...within];
}

/** The override set at a target's own level in validated overrides (a server's, or a profile's for that server). */
export function overrideIn(
  overrides: ServerOverrides | undefined,
  target: OverrideTarget,
): AnyToolOverride | undefined {
  return overrides?.[target.section]?.[target.original];
}

/** The item an override applies to in a server's catalog (absent: the server does not serve it now). */
export function sourceIn(snapshot: BackendCatalog | undefined, target: OverrideTarget): ToolSource | undefined {
  if (!snapshot) return undefined;
  if (target.section === 'tools') {
    const tool = snapshot.tools.find((item) => item.name === target.original);
    return tool && { via: 'tool', tool };
  }
  if (target.section === 'promptsAsTools') {
    const prompt = snapshot.prompts.find((item) => item.name === target.original);
    return prompt && { via: 'prompt', prompt };
  }
  const resource = snapshot.resources.find((item) => item.uri === target.original);
  return resource && { via: 'resource', resource };
}

/**
 * What is wrong with `override` for `target`, each problem naming its field
 * by dotted path; fixed values and defaults are checked against the tool's
 * input schema when the tool is known (`source`).
 */
export function overrideProblems(target: OverrideTarget, override: unknown, source?: ToolSource): ConfigProblem[] {
  const base = overridePath(target).join('.');
  const schema = target.section === 'tools' ? ToolOverrideSchema : ItemAsToolSchema;
  const parsed = schema.safeParse(override);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => ({
      path: [base, ...issue.path.map(String)].join('.'),
      message: issue.code === 'unrecognized_keys' ? `unknown key(s): ${issue.keys.join(', ')}` : issue.message,
    }));
  }
  if (source?.via !== 'tool' || target.section !== 'tools') return [];
  const { arguments: args } = parsed.data as ToolOverride;
  return argumentProblems(source.tool.inputSchema, args).map((problem) => ({
    path: `${base}.${problem.path}`,
    message: problem.message,
  }));
}

/** Throws `config_invalid` listing every problem (nothing is written). */
export function refuseProblems(problems: ConfigProblem[]): void {
  if (problems.length === 0) return;
  throw new SwitchboardError(
    ErrorCode.ConfigInvalid,
    problems.map((problem) => `${problem.path}: ${problem.message}`).join('; '),
    { problems },
  );
}

/**
 * Sets (or with `undefined` removes) one override in the raw config document,
 * pruning containers it leaves empty. The server's entry (and the profile)
 * must exist: `unknown_backend` / `unknown_client` otherwise.
 */
export function writeOverride(
  document: Record<string, unknown>,
  target: OverrideTarget,
  override: AnyToolOverride | undefined,
): void {
  const servers = objectAt(document, 'mcpServers');
  if (!servers || !objectAt(servers, target.backendId)) {
    throw new SwitchboardError(ErrorCode.UnknownBackend, `no server "${target.backendId}" in the config`, {
      backend: target.backendId,
    });
  }
  let root: Record<string, unknown>;
  if (target.profile === undefined) root = objectAt(servers, target.backendId)!;
  else {
    const profile = objectAt(objectAt(objectAt(document, 'policy'), 'clients'), target.profile);
    if (!profile) {
      throw new SwitchboardError(ErrorCode.UnknownClient, `no client profile "${target.profile}"`, {
        client: target.profile,
      });
    }
    root = profile;
  }
  const path = overridePath(target).slice(target.profile === undefined ? 2 : 3);
  setPath(root, path, override);
}

function objectAt(parent: unknown, key: string): Record<string, unknown> | undefined {
  if (parent === null || typeof parent !== 'object' || Array.isArray(parent)) return undefined;
  const value = (parent as Record<string, unknown>)[key];
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Sets `value` at `path` under `root` (creating objects), or deletes it and the containers it empties. */
function setPath(root: Record<string, unknown>, path: string[], value: unknown): void {
  const [key, ...rest] = path;
  if (key === undefined) return;
  if (rest.length === 0) {
    if (value === undefined) delete root[key];
    else root[key] = value;
    return;
  }
  let child = objectAt(root, key);
  if (!child) {
    if (value === undefined) return;
    child = {};
    root[key] = child;
  }
  setPath(child, rest, value);
  if (Object.keys(child).length === 0) delete root[key];
}
