/**
 * A client's server entry turned into a Switchboard backend entry. Clients
 * spell the same things differently (Windsurf's `serverUrl`, Codex's
 * `http_headers` and `bearer_token_env_var`, Zed's older `command: {path}`,
 * `${env:VAR}` in Cursor and VS Code); this maps each to config.json's
 * Claude-Desktop format and says what could not be carried over.
 */
import { entryTypeOf, remoteTransportNamed } from '../../../../shared/model/transports.js';

/** The outcome for one entry. */
export interface Normalized {
  entry?: Record<string, unknown>;
  skipReason?: string;
  warnings: string[];
}

/** Fields that mean something to us, per shape; anything else is reported as ignored. */
const KNOWN = new Set([
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'serverUrl',
  'httpUrl',
  'type',
  'transport',
  'headers',
  'http_headers',
  'env_http_headers',
  'bearer_token_env_var',
  'enabled',
  'disabled',
  'source',
  'env_vars',
  'sandbox',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Numbers and booleans as their text (parsed objects may lack a prototype, so no String()). */
function asString(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function stringMap(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asString(v)]));
}

/**
 * Rewrites client-specific substitutions into ours: `${env:VAR}` -> `${VAR}`,
 * `${userHome}` -> the home directory. Returns undefined (with the reason) for
 * ones only the client can resolve (`${input:...}`, `${workspaceFolder}`).
 */
function substitute(value: string, home: string): { value?: string; problem?: string } {
  const unresolvable =
    /\$\{(input:[^}]+|workspaceFolder[^}]*|workspaceRoot|file|relativeFile|config:[^}]+|command:[^}]+)\}/.exec(value);
  if (unresolvable) return { problem: `uses \${${unresolvable[1]}}, which only the client can resolve` };
  return { value: value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, '${$1}').replace(/\$\{userHome\}/g, home) };
}

function substituteAll<T extends string | string[] | Record<string, string>>(
  value: T,
  home: string,
  problems: string[],
): T {
  const one = (text: string): string => {
    const result = substitute(text, home);
    if (result.problem) problems.push(result.problem);
    return result.value ?? text;
  };
  if (typeof value === 'string') return one(value) as T;
  if (Array.isArray(value)) return value.map(one) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, one(v)])) as T;
}

/** Maps one client entry (`raw`) to a Switchboard entry. */
export function normalizeEntry(raw: unknown, home: string): Normalized {
  const warnings: string[] = [];
  if (!isRecord(raw)) return { skipReason: 'the entry is not an object', warnings };
  let source = raw;
  // Zed's older form: "command": { "path": ..., "args": [...], "env": {...} }.
  if (isRecord(raw['command'])) {
    const command = raw['command'];
    source = { ...raw, command: command['path'], args: command['args'], env: command['env'] };
  }
  if (source['source'] === 'extension' || (source['command'] === undefined && source['settings'] !== undefined)) {
    return { skipReason: 'provided by a Zed extension (only Zed can start it)', warnings };
  }
  const ignored = Object.keys(source).filter((key) => !KNOWN.has(key));
  if (ignored.length > 0) warnings.push(`not carried over: ${ignored.join(', ')}`);
  const problems: string[] = [];
  const enabled = source['enabled'] === false || source['disabled'] === true ? { enabled: false } : {};
  const url = [source['url'], source['serverUrl'], source['httpUrl']].find((v) => typeof v === 'string') as
    string | undefined;
  let entry: Record<string, unknown>;
  if (typeof source['command'] === 'string') {
    if (source['envFile'] !== undefined) warnings.push('envFile is not read; set those variables another way');
    const args = Array.isArray(source['args']) ? (source['args'] as unknown[]).map(asString) : [];
    entry = {
      command: substituteAll(source['command'], home, problems),
      ...(args.length > 0 ? { args: substituteAll(args, home, problems) } : {}),
      ...(isRecord(source['env']) ? { env: substituteAll(stringMap(source['env']), home, problems) } : {}),
      ...(typeof source['cwd'] === 'string' ? { cwd: substituteAll(source['cwd'], home, problems) } : {}),
      // A Switchboard entry pasted back keeps its own sandbox setting.
      ...(source['sandbox'] !== undefined ? { sandbox: source['sandbox'] } : {}),
      ...enabled,
    };
  } else if (url !== undefined) {
    const headers: Record<string, string> = { ...stringMap(source['headers']), ...stringMap(source['http_headers']) };
    for (const [header, variable] of Object.entries(stringMap(source['env_http_headers']))) {
      headers[header] = `\${${variable}}`;
    }
    if (typeof source['bearer_token_env_var'] === 'string') {
      headers['Authorization'] = `Bearer \${${source['bearer_token_env_var']}}`;
    }
    entry = {
      url: substituteAll(url, home, problems),
      ...entryTypeOf(remoteTransportNamed(source['type'] ?? source['transport'])),
      ...(Object.keys(headers).length > 0 ? { headers: substituteAll(headers, home, problems) } : {}),
      ...enabled,
    };
  } else {
    return { skipReason: 'has neither a command nor a URL', warnings };
  }
  if (problems.length > 0) return { skipReason: [...new Set(problems)].join('; '), warnings };
  return { entry, warnings };
}

/** A client's server name made into a valid backend ID (letters, digits, `_`, `-`, starting with a letter). */
export function backendIdFor(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
  if (cleaned === '') return 'server';
  return /^[A-Za-z]/.test(cleaned) ? cleaned : `s-${cleaned}`;
}

/** Whether two backend entries start the same server (same command line and cwd, or same URL). */
export function sameServer(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  if (typeof a['url'] === 'string' || typeof b['url'] === 'string') {
    return typeof a['url'] === 'string' && a['url'].replace(/\/$/, '') === String(b['url'] ?? '').replace(/\/$/, '');
  }
  const line = (e: Record<string, unknown>) =>
    JSON.stringify([e['command'], Array.isArray(e['args']) ? e['args'] : [], e['cwd'] ?? null]);
  return line(a) === line(b);
}
