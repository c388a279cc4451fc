/**
 * A pasted `mcpServers` snippet (Claude Desktop, Cursor, Claude Code,
 * Windsurf), a VS Code `servers` map, a Zed `context_servers` map, a bare map
 * of servers, or one server entry: read with the same normalizer as client
 * import, secret-looking values moved out of the entry: to the OS keychain;
 * without one, where the user chose (secretChoice.ts): a `${VAR}` reference
 * or config.json in plain text. Not chosen yet: refused, asking, before
 * anything is written, so a secret is never thrown away or kept silently.
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import {
  backendIdFor,
  normalizeEntry,
  withDefaultSandbox,
  keepSecrets,
  secretSinkFor,
  type SecretSink,
  secretChoiceNeeded,
  sinkWithoutKeychain,
  type SecretStorage,
} from '../core/install/index.js';
import type { SecretStore } from '../core/platform/index.js';
import type { SnippetSecret, SnippetView } from '../../shared/model/snippetViews.js';

/** What `backends.parseSnippet` returns. */
export type ParsedSnippet = SnippetView;

type Found = { field: 'env' | 'headers'; name: string; value: string };

/** A sink that only notes each secret (the first pass without keychain or choice). */
function noting(found: Found[]): SecretSink {
  return {
    async keep({ field, name, value }) {
      found.push({ field, name, value });
      return { replacement: '', reference: '', resolves: true };
    },
  };
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
  options: {
    home: string;
    taken: Iterable<string>;
    secrets?: SecretStore | undefined;
    environment: NodeJS.ProcessEnv;
    /** Without a keychain, where secrets go (absent: refused with `data.field: 'secretStorage'` if there are any). */
    storage?: SecretStorage | undefined;
  },
): Promise<ParsedSnippet> {
  const parsed = parseLoose(text);
  if (parsed.problem !== undefined) return { servers: [], problems: [parsed.problem] };
  const map = serverMap(parsed.value);
  if (!map) return { servers: [], problems: ['no servers found: expected "mcpServers", "servers" or a server entry'] };
  const { sink: found, status } = await secretSinkFor(options.secrets, options.environment);
  const place: SnippetSecret['place'] = status.available
    ? 'keychain'
    : options.storage === 'config'
      ? 'config'
      : 'environment';
  const asking = !status.available && options.storage === undefined;
  const noted: { id: string; secrets: Found[] }[] = [];
  const sink = status.available || !options.storage ? found : sinkWithoutKeychain(options.storage, options.environment);
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
    if (asking) {
      const secrets: Found[] = [];
      await keepSecrets(id, normalized.entry, noting(secrets));
      if (secrets.length > 0) noted.push({ id, secrets });
    }
    // The user pasted it here to add it: the keychain writes happen now.
    const kept = await keepSecrets(id, normalized.entry, sink);
    if (!asking) for (const save of kept.saves) await save();
    const secrets = kept.findings.map(({ field, reference }) => ({ field, reference: reference ?? '', place }));
    for (const finding of kept.findings.filter((f) => !f.resolves)) {
      result.problems.push(`${name}: ${finding.field} became ${finding.reference}; set that variable (no OS keychain)`);
    }
    // Added from now on: sandboxed by default (install/clientApps/sandboxDefault.ts), as the CLI's adds are.
    result.servers.push({ id, entry: withDefaultSandbox(kept.entry), secrets });
  }
  if (noted.length > 0) throw await choiceForAll(noted, options.environment);
  return result;
}

/** One refusal for every server's secrets, each field named with its server (`memory: env.TOKEN`). */
async function choiceForAll(noted: { id: string; secrets: Found[] }[], environment: NodeJS.ProcessEnv) {
  const variables: unknown[] = [];
  const messages: string[] = [];
  for (const { id, secrets } of noted) {
    const asked = await secretChoiceNeeded(id, secrets, environment);
    messages.push(`${id}: ${asked.message}`);
    const named = (asked.data?.['variables'] ?? []) as { field: string }[];
    variables.push(...named.map((variable) => ({ ...variable, field: `${id}: ${variable.field}` })));
  }
  return new SwitchboardError(ErrorCode.InputInvalid, messages.join('; '), { field: 'secretStorage', variables });
}
