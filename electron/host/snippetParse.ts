/**
 * A pasted `mcpServers` snippet (Claude Desktop, Cursor, Claude Code,
 * Windsurf), a VS Code `servers` map, a Zed `context_servers` map, a bare map
 * of servers, or one server entry: read with the same normalizer as client
 * import, secret-looking values moved out of the entry (to the OS keychain,
 * or `${VAR}` references when there is none).
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { backendIdFor, normalizeEntry } from '../core/clients/normalize.js';
import { keepSecrets } from '../core/clients/import.js';
import { secretSinkFor } from '../core/clients/secrets.js';
import type { SecretStore } from '../core/secrets/secretStore.js';

/** What `backends.parseSnippet` returns. */
export interface ParsedSnippet {
  servers: { id: string; entry: Record<string, unknown>; secretFields: string[] }[];
  problems: string[];
}

const CONTAINERS = ['mcpServers', 'servers', 'context_servers', 'mcp_servers'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Parses JSON with comments; a fragment such as `"name": {...}` is tried inside braces. */
function parseLoose(text: string): { value?: unknown; problem?: string } {
  for (const candidate of [text, `{${text}}`]) {
    const errors: ParseError[] = [];
    const value: unknown = parse(candidate, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length === 0 && value !== undefined) return { value };
    if (candidate === text && text.trim().startsWith('{')) {
      const first = errors[0];
      return {
        problem: `not valid JSON: ${first ? printParseErrorCode(first.error) : 'empty'} at offset ${first?.offset ?? 0}`,
      };
    }
  }
  return { problem: 'not valid JSON: paste an "mcpServers" object or one server entry' };
}

/** The map of servers in a parsed snippet. */
function serverMap(value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  for (const key of CONTAINERS) if (isRecord(value[key])) return value[key];
  if (typeof value['command'] === 'string' || isRecord(value['command']) || typeof value['url'] === 'string') {
    return { server: value };
  }
  const entries = Object.values(value);
  return entries.length > 0 && entries.every(isRecord) ? value : undefined;
}

/**
 * Reads `text` into backend entries. IDs are made valid and unique against
 * `taken`; with a keychain, secret values are stored there now under
 * `<id>.<name>` and the entry refers to them.
 */
export async function parseSnippet(
  text: string,
  options: { home: string; taken: Iterable<string>; secrets?: SecretStore | undefined; environment: NodeJS.ProcessEnv },
): Promise<ParsedSnippet> {
  const parsed = parseLoose(text);
  if (parsed.problem !== undefined) return { servers: [], problems: [parsed.problem] };
  const map = serverMap(parsed.value);
  if (!map) return { servers: [], problems: ['no servers found: expected "mcpServers", "servers" or a server entry'] };
  const { sink } = await secretSinkFor(options.secrets, options.environment);
  const taken = new Set(options.taken);
  const result: ParsedSnippet = { servers: [], problems: [] };
  for (const [name, raw] of Object.entries(map)) {
    const normalized = normalizeEntry(raw, options.home);
    for (const warning of normalized.warnings) result.problems.push(`${name}: ${warning}`);
    if (!normalized.entry) {
      result.problems.push(`${name}: ${normalized.skipReason ?? 'cannot be read'}`);
      continue;
    }
    let id = backendIdFor(name);
    for (let n = 2; taken.has(id); n++) id = `${backendIdFor(name)}-${n}`;
    taken.add(id);
    // The user pasted it here to add it: the keychain writes happen now.
    const kept = await keepSecrets(id, normalized.entry, sink);
    for (const save of kept.saves) await save();
    const entry = kept.entry;
    const secretFields = kept.findings.map((finding) => finding.field);
    for (const finding of kept.findings.filter((f) => !f.resolves)) {
      result.problems.push(`${name}: ${finding.field} became ${finding.reference}; set that variable (no OS keychain)`);
    }
    result.servers.push({ id, entry, secretFields });
  }
  return result;
}
