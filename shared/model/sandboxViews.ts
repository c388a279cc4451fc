/**
 * What the UI sees of sandboxing as a whole (issue #25): whether a sandbox can
 * run on this machine (and why not), and `proxy.defaultSandbox`, for Settings
 * and the Add server flow. A server's own sandbox is in its health
 * (health.ts `BackendSandbox`). Plain data.
 */
import type { BackendSandbox } from './health.js';

/** Whether servers can be sandboxed here: the engine, or why there is none. */
export type SandboxSupportView =
  { available: true; engine: 'bubblewrap' | 'srt' } | { available: false; reason: string };

/** What a sandboxed server of a new entry may do beyond the defaults, as the Add flow shows it before starting. */
export interface SandboxSettingView {
  enabled: boolean;
  read: string[];
  write: string[];
  network: 'none' | 'all' | string[];
}

/** Settings' sandbox panel. */
export interface SandboxSettingsView {
  support: SandboxSupportView;
  /** `proxy.defaultSandbox` as saved in the config file. */
  defaultSandbox: boolean;
  /** The value the running servers were started with (a change applies once Switchboard restarts). */
  defaultInForce: boolean;
  /** Linux: the sandbox packages not installed, named together with the one command that installs them. */
  missingPackages?: { packages: string[]; command: string };
}

/** What adding a registry entry would run, before anything is started. */
export interface AddPreviewView {
  /** stdio: the command and its arguments; a remote: its URL. */
  command?: string;
  args?: string[];
  url?: string;
  /** What the preview cannot say yet (a registry bundle's command is in the bundle). */
  note?: string;
  /** The entry's `sandbox` as it will be saved (absent: not a sandboxed kind, e.g. remote or a container). */
  sandbox?: SandboxSettingView;
}

/** One grant on a server's sandbox (sandboxGrants.ts adds and takes them away). */
export interface SandboxGrant {
  kind: 'read' | 'write' | 'host';
  /** A path (absolute or `~/...`), or a host (`api.github.com`, `*.example.com`, `127.0.0.1:5432`). */
  target: string;
}

/**
 * A path a server's launch points at that its sandbox would hide (shown
 * before the sandbox is turned on): the variable (`MEMORY_FILE_PATH`) or the
 * argument (`args[2]`) naming it, and the grant that would let it through.
 */
export interface SandboxPathWarning {
  source: 'env' | 'arg';
  name: string;
  path: string;
  grant: SandboxGrant;
}

/** One server's sandbox, for `mcp-switchboard sandbox show` and the card's grant list. */
export interface SandboxServerView {
  id: string;
  /** Its own setting (absent: it has none, and `proxy.defaultSandbox` decides). */
  own?: SandboxSettingView;
  /** What it runs under now, and what it was refused (health's view). */
  sandbox?: BackendSandbox;
  /** Its grants beyond the defaults, each revocable. */
  grants: SandboxGrant[];
  /** What its launch points at outside its sandbox. */
  warnings: SandboxPathWarning[];
}

/** One line of a learned grant's diff: `+` added by accepting, `=` granted and used, `?` granted, unused in the run. */
export interface LearnDiffLineView {
  mark: '+' | '=' | '?';
  value: string;
}

/**
 * What learning a server's permissions found (`sandbox learn`, the card's
 * Learn permissions): the smallest grant covering what it did, as a diff
 * against its current `sandbox`, and how the run went. Paths under the home
 * are `~/...`; nothing of its env or arguments is in it.
 */
export interface LearnView {
  id: string;
  durationMs: number;
  listed: { tools: number; resources: number; prompts: number };
  /** Each call made while learning: whether it worked (its result is not kept). */
  calls: { name: string; ok: boolean; error?: string }[];
  /** The learned grant on its own. */
  grant: { read: string[]; write: string[]; network: string[]; addresses: string[] };
  diff: {
    read: LearnDiffLineView[];
    write: LearnDiffLineView[];
    network: LearnDiffLineView[];
    turnsOn: boolean;
    unchanged: boolean;
  };
  /** The setting Accept writes (current grants kept, learned ones added). */
  proposed: SandboxSettingView;
}
