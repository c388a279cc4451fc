/**
 * The clients we know: where each keeps its MCP servers (per OS), the file's
 * syntax, the key of the server map, and the entry that points it at
 * Switchboard. Every client that can reach a local URL gets the HTTP endpoint
 * with a bearer header; Claude Desktop can only launch commands, so it gets
 * `connect` with absolute paths (GUI apps have a minimal PATH: no bare `npx`).
 */
import { join } from 'node:path';
import { DEFAULT_PORT } from '../../../../shared/endpoint.js';
import type { ClientId, EntryTarget, PlatformEnv } from './clientAppTypes.js';

/** Syntax of a client's config file. */
export type FileFormat = 'json' | 'jsonc' | 'toml';

/** Everything install and import need to know about one client. */
export interface ClientDefinition {
  id: ClientId;
  name: string;
  format: FileFormat;
  /** Top-level key of the server map. */
  container: string;
  /** Key of our entry in that map. */
  entryKey: string;
  transport: 'stdio' | 'http';
  /** Longest tool name the client accepts after adding its own prefix. */
  toolNameBudget: number;
  /** The user-scope config file. */
  configPath(p: PlatformEnv): string;
  /** The project-scope file under `dir`, when the client has one we write to. */
  projectPath?(dir: string): string;
  /** Paths whose existence means the client is on this machine. */
  detectPaths(p: PlatformEnv): string[];
  /** Our entry. */
  buildEntry(target: EntryTarget): Record<string, unknown>;
}

/** Bearer header value: the token, or a `${SWITCHBOARD_TOKEN}` reference in the client's own syntax. */
function bearer(target: EntryTarget, reference = '${SWITCHBOARD_TOKEN}'): string {
  return `Bearer ${target.project ? reference : target.token}`;
}

/** Per-OS application-data folder: macOS Application Support, Windows %APPDATA%, else XDG config. */
function appData(p: PlatformEnv): string {
  if (p.platform === 'darwin') return join(p.home, 'Library', 'Application Support');
  if (p.platform === 'win32') return p.env['APPDATA'] ?? join(p.home, 'AppData', 'Roaming');
  return p.env['XDG_CONFIG_HOME'] || join(p.home, '.config');
}

/** The `connect` command line, for clients that launch a command. */
export function connectCommand(target: EntryTarget): { command: string; args: string[] } {
  const config = target.configPath ? ['--config', target.configPath] : [];
  // The port the entry was made for (`install --port N`, or the running instance's), unless it is connect's default.
  const port = Number(new URL(target.url).port);
  const ports = Number.isInteger(port) && port > 0 && port !== DEFAULT_PORT ? ['--port', String(port)] : [];
  return { command: target.launcher.command, args: [...target.launcher.args, 'connect', ...config, ...ports] };
}

/** Environment variable through which `connect` receives the client's token (never argv: other users see argv). */
export const CLIENT_TOKEN_VARIABLE = 'SWITCHBOARD_CLIENT_TOKEN';

const CLAUDE_CODE_KEY = 'sb';

const DEFINITIONS: readonly ClientDefinition[] = [
  {
    id: 'claude-desktop',
    name: 'Claude Desktop',
    format: 'json',
    container: 'mcpServers',
    entryKey: 'switchboard',
    transport: 'stdio',
    toolNameBudget: 64,
    configPath: (p) => join(appData(p), 'Claude', 'claude_desktop_config.json'),
    detectPaths: (p) => [join(appData(p), 'Claude')],
    buildEntry: (t) => ({ ...connectCommand(t), env: { ...t.launcher.env, [CLIENT_TOKEN_VARIABLE]: t.token } }),
  },
  {
    id: 'claude-code',
    name: 'Claude Code',
    format: 'json',
    container: 'mcpServers',
    // Claude Code shows tools as mcp__<key>__<tool> within 64 characters: a short key leaves the most room.
    entryKey: CLAUDE_CODE_KEY,
    transport: 'http',
    toolNameBudget: 64 - `mcp__${CLAUDE_CODE_KEY}__`.length,
    configPath: (p) => join(p.env['CLAUDE_CONFIG_DIR'] || p.home, '.claude.json'),
    projectPath: (dir) => join(dir, '.mcp.json'),
    detectPaths: (p) => [join(p.env['CLAUDE_CONFIG_DIR'] || p.home, '.claude.json'), join(p.home, '.claude')],
    buildEntry: (t) => ({ type: 'http', url: t.url, headers: { Authorization: bearer(t) } }),
  },
  {
    id: 'cursor',
    name: 'Cursor',
    format: 'json',
    container: 'mcpServers',
    entryKey: 'switchboard',
    transport: 'http',
    toolNameBudget: 64,
    configPath: (p) => join(p.home, '.cursor', 'mcp.json'),
    projectPath: (dir) => join(dir, '.cursor', 'mcp.json'),
    detectPaths: (p) => [join(p.home, '.cursor')],
    buildEntry: (t) => ({ url: t.url, headers: { Authorization: bearer(t, '${env:SWITCHBOARD_TOKEN}') } }),
  },
  {
    id: 'vscode',
    name: 'VS Code',
    format: 'jsonc',
    container: 'servers',
    entryKey: 'switchboard',
    transport: 'http',
    toolNameBudget: 64,
    configPath: (p) => join(appData(p), 'Code', 'User', 'mcp.json'),
    detectPaths: (p) => [join(appData(p), 'Code', 'User')],
    buildEntry: (t) => ({ type: 'http', url: t.url, headers: { Authorization: bearer(t) } }),
  },
  {
    id: 'windsurf',
    name: 'Windsurf',
    format: 'json',
    container: 'mcpServers',
    entryKey: 'switchboard',
    transport: 'http',
    toolNameBudget: 64,
    configPath: (p) => join(p.home, '.codeium', 'windsurf', 'mcp_config.json'),
    detectPaths: (p) => [join(p.home, '.codeium', 'windsurf')],
    buildEntry: (t) => ({ serverUrl: t.url, headers: { Authorization: bearer(t) } }),
  },
  {
    id: 'zed',
    name: 'Zed',
    format: 'jsonc',
    container: 'context_servers',
    entryKey: 'switchboard',
    transport: 'http',
    toolNameBudget: 64,
    // Zed keeps ~/.config/zed on macOS too; %APPDATA%\Zed on Windows.
    configPath: (p) =>
      p.platform === 'win32'
        ? join(appData(p), 'Zed', 'settings.json')
        : join(p.env['XDG_CONFIG_HOME'] || join(p.home, '.config'), 'zed', 'settings.json'),
    detectPaths: (p) => [
      p.platform === 'win32'
        ? join(appData(p), 'Zed')
        : join(p.env['XDG_CONFIG_HOME'] || join(p.home, '.config'), 'zed'),
    ],
    buildEntry: (t) => ({ url: t.url, headers: { Authorization: bearer(t) } }),
  },
  {
    id: 'codex',
    name: 'Codex',
    format: 'toml',
    container: 'mcp_servers',
    entryKey: 'switchboard',
    transport: 'http',
    toolNameBudget: 64,
    configPath: (p) => join(p.env['CODEX_HOME'] || join(p.home, '.codex'), 'config.toml'),
    detectPaths: (p) => [p.env['CODEX_HOME'] || join(p.home, '.codex')],
    // Codex refuses an inline `bearer_token`; literal headers go in `http_headers`.
    buildEntry: (t) => ({ url: t.url, http_headers: { Authorization: bearer(t) } }),
  },
];

/** Every known client. */
export function clientDefinitions(): readonly ClientDefinition[] {
  return DEFINITIONS;
}

/** The client with this id, or undefined. */
export function clientDefinition(id: string): ClientDefinition | undefined {
  return DEFINITIONS.find((definition) => definition.id === id);
}

/** The merged endpoint, one server's (`/servers/<id>/mcp`) or one profile's (`/profiles/<name>/mcp`). */
const LOOPBACK_MCP = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+(\/(servers|profiles)\/[^/]+)?\/mcp\/?$/;

/**
 * Whether a client entry points at Switchboard: a loopback `/mcp` URL (or, in
 * gateway mode, the gateway's public URL), or a
 * command line running mcp-switchboard's `connect` or `serve`. Used to mark
 * our entry (never imported, safe to replace) and to refuse overwriting a
 * user's own server that happens to use our key.
 */
export function isSwitchboardEntry(entry: unknown, gatewayUrl?: string): boolean {
  if (entry === null || typeof entry !== 'object') return false;
  const record = entry as Record<string, unknown>;
  for (const field of ['url', 'serverUrl']) {
    const value = record[field];
    if (typeof value === 'string' && (LOOPBACK_MCP.test(value) || value === gatewayUrl)) return true;
  }
  const strings = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  const args = strings(record['args']);
  const line = [typeof record['command'] === 'string' ? record['command'] : '', ...args];
  return line.some((part) => /mcp-switchboard/.test(part)) && args.some((a) => a === 'connect' || a === 'serve');
}
