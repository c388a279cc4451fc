/**
 * Well-known MCP servers the UI offers to add in one click, and how a
 * preset plus the user's answers becomes a backend config entry.
 *
 * Pure data and functions (no Node, no DOM): the renderer shows them, and the
 * core may use them too. API keys never go into the entry: they are written to
 * the keychain through `secrets.set` and referenced as `{"secret": name}`.
 */

/** Where a field's answer goes in the entry. */
export type PresetFieldTarget =
  | { kind: 'arg' } /** replaces `{<field key>}` in the preset's args */
  | { kind: 'env'; name: string }
  | { kind: 'header'; name: string; prefix?: string };

/** One thing the user must (or may) fill in before adding a preset. */
export interface PresetField {
  key: string;
  label: string;
  /** `folder`: a path on this machine; `secret`: stored in the keychain, never in config.json. */
  input: 'folder' | 'text' | 'secret';
  required: boolean;
  placeholder?: string;
  help?: string;
  target: PresetFieldTarget;
}

/** A well-known server. */
export interface ServerPreset {
  /** Suggested backend ID (letters, digits, `_`, `-`; starts with a letter). */
  id: string;
  name: string;
  description: string;
  transport: 'stdio' | 'http';
  command?: string;
  args?: string[];
  url?: string;
  /** Remote servers that sign in with OAuth: add, then Authorize. */
  oauth?: boolean;
  fields: PresetField[];
  homepage?: string;
}

const npx = (pkg: string, ...extra: string[]): Pick<ServerPreset, 'command' | 'args'> => ({
  command: 'npx',
  args: ['-y', pkg, ...extra],
});

/** The built-in list. */
export const SERVER_PRESETS: readonly ServerPreset[] = [
  {
    id: 'filesystem',
    name: 'Filesystem',
    description: 'Read, write and search files inside one folder you choose.',
    transport: 'stdio',
    ...npx('@modelcontextprotocol/server-filesystem', '{folder}'),
    fields: [
      {
        key: 'folder',
        label: 'Folder to share',
        input: 'folder',
        required: true,
        placeholder: '/home/me/projects',
        target: { kind: 'arg' },
      },
    ],
    homepage: 'https://github.com/modelcontextprotocol/servers/tree/main/src/filesystem',
  },
  {
    id: 'memory',
    name: 'Memory',
    description: 'A knowledge graph the model can store facts in and recall later.',
    transport: 'stdio',
    ...npx('@modelcontextprotocol/server-memory'),
    fields: [
      {
        key: 'file',
        label: 'Memory file (optional)',
        input: 'text',
        required: false,
        placeholder: '/home/me/.mcp-memory.json',
        help: 'Where the graph is kept; defaults to a file inside the package.',
        target: { kind: 'env', name: 'MEMORY_FILE_PATH' },
      },
    ],
  },
  {
    id: 'fetch',
    name: 'Fetch',
    description: 'Fetch web pages and convert them to Markdown (needs uv installed).',
    transport: 'stdio',
    command: 'uvx',
    args: ['mcp-server-fetch'],
    fields: [],
  },
  {
    id: 'git',
    name: 'Git',
    description: 'Read and search a Git repository: log, diff, status, blame (needs uv installed).',
    transport: 'stdio',
    command: 'uvx',
    args: ['mcp-server-git', '--repository', '{repository}'],
    fields: [
      {
        key: 'repository',
        label: 'Repository folder',
        input: 'folder',
        required: true,
        placeholder: '/home/me/projects/app',
        target: { kind: 'arg' },
      },
    ],
  },
  {
    id: 'github',
    name: 'GitHub',
    description: 'Issues, pull requests, code search and files on GitHub.',
    transport: 'stdio',
    ...npx('@modelcontextprotocol/server-github'),
    fields: [
      {
        key: 'token',
        label: 'Personal access token',
        input: 'secret',
        required: true,
        placeholder: 'ghp_…',
        help: 'Stored in the OS keychain, never in config.json.',
        target: { kind: 'env', name: 'GITHUB_PERSONAL_ACCESS_TOKEN' },
      },
    ],
  },
  {
    id: 'playwright',
    name: 'Playwright',
    description: 'Drive a real browser: navigate, click, fill forms, take snapshots.',
    transport: 'stdio',
    ...npx('@playwright/mcp@latest'),
    fields: [],
  },
  {
    id: 'sequential-thinking',
    name: 'Sequential thinking',
    description: 'A scratchpad tool for step-by-step reasoning with revisions.',
    transport: 'stdio',
    ...npx('@modelcontextprotocol/server-sequential-thinking'),
    fields: [],
  },
  {
    id: 'everything',
    name: 'Everything (reference)',
    description: 'The MCP reference test server: every kind of tool, prompt and resource.',
    transport: 'stdio',
    ...npx('@modelcontextprotocol/server-everything'),
    fields: [],
  },
  {
    id: 'notion',
    name: 'Notion',
    description: 'Search and edit your Notion pages and databases (sign in with OAuth).',
    transport: 'http',
    url: 'https://mcp.notion.com/mcp',
    oauth: true,
    fields: [],
  },
  {
    id: 'linear',
    name: 'Linear',
    description: 'Issues, projects and comments in Linear (sign in with OAuth).',
    transport: 'http',
    url: 'https://mcp.linear.app/mcp',
    oauth: true,
    fields: [],
  },
  {
    id: 'sentry',
    name: 'Sentry',
    description: 'Errors, issues and releases from Sentry (sign in with OAuth).',
    transport: 'http',
    url: 'https://mcp.sentry.dev/mcp',
    oauth: true,
    fields: [],
  },
];

/** A secret to write with `secrets.set` before adding the entry that references it. */
export interface PendingSecret {
  name: string;
  value: string;
}

/** What a filled-in preset becomes. */
export interface PresetEntry {
  entry: Record<string, unknown>;
  secrets: PendingSecret[];
  /** Human-readable reasons the answers are not enough yet (empty when fine). */
  problems: string[];
  /** The same problems by the preset field (`key`) they are about, to show on that field. */
  fields: Record<string, string>;
}

/** The keychain name for a backend's secret field, e.g. `github.GITHUB_PERSONAL_ACCESS_TOKEN`. */
export function secretNameFor(backendId: string, field: string): string {
  return `${backendId}.${field}`;
}

/** Builds the config entry for `preset` with the user's `answers` (by field key) under backend `backendId`. */
export function buildPresetEntry(
  preset: ServerPreset,
  answers: Record<string, string>,
  backendId: string,
): PresetEntry {
  const problems: string[] = [];
  const fields: Record<string, string> = {};
  const secrets: PendingSecret[] = [];
  const env: Record<string, unknown> = {};
  const headers: Record<string, unknown> = {};
  let args = [...(preset.args ?? [])];
  for (const field of preset.fields) {
    const answer = (answers[field.key] ?? '').trim();
    if (!answer) {
      if (field.required) {
        problems.push(`${field.label} is required.`);
        fields[field.key] = `${field.label} is required.`;
      }
      args = args.filter((arg) => arg !== `{${field.key}}`);
      continue;
    }
    const target = field.target;
    if (target.kind === 'arg') {
      args = args.map((arg) => arg.split(`{${field.key}}`).join(answer));
      continue;
    }
    const bucket = target.kind === 'env' ? env : headers;
    const prefix = target.kind === 'header' ? (target.prefix ?? '') : '';
    if (field.input === 'secret') {
      // A keychain reference is the whole value, so a header prefix cannot apply to secrets.
      const name = secretNameFor(backendId, target.name);
      secrets.push({ name, value: answer });
      bucket[target.name] = { secret: name };
    } else {
      bucket[target.name] = prefix + answer;
    }
  }
  const entry: Record<string, unknown> =
    preset.transport === 'stdio' ? { command: preset.command, args } : { type: 'http', url: preset.url };
  if (Object.keys(env).length > 0) entry['env'] = env;
  if (Object.keys(headers).length > 0) entry['headers'] = headers;
  return { entry, secrets, problems, fields };
}

/** Backend IDs must start with a letter and hold only letters, digits, `_` and `-` (the one rule, in ids.ts). */
export { BACKEND_ID_PATTERN as BACKEND_ID_RULE } from './ids.js';

/** A backend ID based on `wanted` that is not in `taken` (`memory`, `memory-2`, ...). */
export function freeBackendId(wanted: string, taken: ReadonlySet<string>): string {
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}
