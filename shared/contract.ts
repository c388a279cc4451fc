/**
 * The one contract between the core and the UI. Electron IPC (main + preload)
 * and the headless bridge (HTTP + WebSocket) are both generated from these two
 * maps, so a method without a handler, or a handler with the wrong types, is a
 * compile error on every side.
 *
 * - Methods are request/response. Errors cross as data (`ErrorData`), never as
 *   thrown strings: every call settles with a `CallOutcome`.
 * - Events are invalidations: "something of this kind changed; re-fetch it".
 *   Their payloads only narrow what to re-fetch.
 * - No secret value ever crosses: secrets are written through `secrets.set`
 *   and read by nobody. The one exception is a client token right after
 *   `profiles.createToken` / `profiles.rotateToken`, shown once so the user can
 *   copy it into a client that Switchboard does not configure itself.
 */
import type {
  PathView,
  RegistryOptionView,
  RegistryPageView,
  RegistryUpdatePlanView,
  RegistryUpdateView,
} from './model/registryViews.js';
import type { BundleUpload, BundleView } from './model/bundleViews.js';
import type { ErrorData } from './errors.js';
import type { BackendHealth } from './model/health.js';
import type {
  AppInfo,
  ApprovalView,
  BackendCheck,
  BackendView,
  CatalogEntry,
  ClientAppView,
  ConfigBackupView,
  ImportCandidateView,
  LogEntryView,
  LogQueryView,
  PinChangeView,
  PolicyKind,
  PolicyView,
  ProfileView,
  RuleView,
  SessionView,
  TryResult,
} from './model/views.js';

/** A method's parameters and result. */
interface Method<P, R> {
  params: P;
  result: R;
}

/** Every method the UI may call, by name. */
export interface CoreMethods {
  'app.info': Method<void, AppInfo>;

  'backends.list': Method<void, BackendView[]>;
  /** Connects to a server and lists its catalog without saving anything. */
  'backends.check': Method<{ id: string; entry: Record<string, unknown> }, BackendCheck>;
  /** Checks, then saves and starts the backend; refused (nothing saved) when the check fails, unless `force`. */
  'backends.add': Method<{ id: string; entry: Record<string, unknown>; force?: boolean }, BackendView>;
  /** Reads a pasted Claude Desktop / Cursor / VS Code `mcpServers` (or `servers`) snippet into backend entries. */
  'backends.parseSnippet': Method<
    { text: string },
    { servers: { id: string; entry: Record<string, unknown>; secretFields: string[] }[]; problems: string[] }
  >;
  'backends.update': Method<{ id: string; entry: Record<string, unknown> }, BackendView>;
  'backends.remove': Method<{ id: string }, void>;
  'backends.setEnabled': Method<{ id: string; enabled: boolean }, BackendView>;
  'backends.restart': Method<{ id: string }, BackendHealth>;
  'backends.refresh': Method<{ id: string }, BackendHealth>;
  /** Starts OAuth for a remote backend; the browser opens on the returned URL. */
  'backends.authorize': Method<{ id: string }, { authorizationUrl: string }>;
  'backends.signOut': Method<{ id: string }, void>;

  /** Stores a secret value in the OS keychain under `name` (write-only). */
  'secrets.set': Method<{ name: string; value: string }, void>;
  /** Names of stored secrets (never values). */
  'secrets.list': Method<void, string[]>;

  'catalog.list': Method<void, CatalogEntry[]>;
  'catalog.callTool': Method<{ name: string; arguments: Record<string, unknown> }, TryResult>;
  'catalog.getPrompt': Method<{ name: string; arguments: Record<string, string> }, TryResult>;
  'catalog.readResource': Method<{ uri: string }, TryResult>;

  /** `profile` absent or `*`: the rules every client gets. */
  'policy.get': Method<{ profile?: string }, PolicyView>;
  'policy.setRule': Method<
    { backendId: string; kind: PolicyKind; original: string; rule: RuleView | null; profile?: string },
    void
  >;
  /**
   * Server-wide settings; or, with a `profile`, only `visible`: whether that
   * profile sees the server (its `backends` list).
   */
  'policy.setBackend': Method<
    {
      backendId: string;
      profile?: string;
      visible?: boolean;
      enabled?: boolean;
      defaultRule?: 'allow' | 'deny';
      pinning?: boolean;
      capture?: boolean;
    },
    void
  >;

  'approvals.list': Method<void, ApprovalView[]>;
  'approvals.resolve': Method<{ id: string; decision: 'once' | 'always' | 'deny' }, void>;
  'pins.list': Method<void, PinChangeView[]>;
  'pins.approve': Method<{ backendId: string; tool: string }, void>;

  'profiles.list': Method<void, ProfileView[]>;
  'profiles.createToken': Method<{ id: string; name: string; backends?: string[] }, { token: string }>;
  'profiles.rotateToken': Method<{ id: string }, { token: string }>;
  'profiles.revoke': Method<{ id: string }, void>;
  /** Sets a profile's exposure (`all`, `search`, `auto`; `null` for the policy's default). */
  'profiles.setExposure': Method<{ id: string; exposure: 'all' | 'search' | 'auto' | null }, void>;
  'sessions.list': Method<void, SessionView[]>;
  'log.query': Method<LogQueryView, LogEntryView[]>;

  'clients.list': Method<void, ClientAppView[]>;
  'clients.install': Method<
    { client: string; project?: string },
    { path: string; changed: boolean; backup?: string; notes: string[] }
  >;
  'clients.uninstall': Method<
    { client: string; project?: string },
    { path: string; changed: boolean; backup?: string }
  >;
  'clients.snippet': Method<{ client: string }, { text: string }>;
  'clients.importable': Method<{ client: string }, ImportCandidateView[]>;
  'clients.import': Method<{ client: string; names: string[]; replace?: boolean }, { imported: string[] }>;

  /** The kept copies of the config file, newest first (the last 20, one before each write). */
  'config.backups': Method<void, ConfigBackupView[]>;
  /** Puts backup `index` (default 1, the newest) back; the file it replaces becomes the newest backup. */
  'config.restore': Method<{ index?: number }, ConfigBackupView>;
  /** MCP registries (registry/): search pages, adding an entry, and the PATH stdio backends get. */
  'registry.search': Method<{ text: string; cursor?: string }, RegistryPageView>;
  'registry.add': Method<
    {
      ref: string;
      id?: string;
      values: Record<string, string | string[]>;
      choice?: RegistryOptionView['choice'];
      /**
       * Without an OS keychain, where secret values go: `reference` (a `${VAR}` the user sets) or `config`
       * (config.json, plain text). Absent then: refused with `data.field: 'secretStorage'` naming the variables.
       */
      secretStorage?: 'reference' | 'config';
    },
    /** `needsAuthorization`: the server answered 401; saved, and its OAuth sign-in started at `authorizationUrl`. */
    { id: string; secrets: string[]; tools?: number; needsAuthorization?: boolean; authorizationUrl?: string }
  >;
  /**
   * Backends added from a registry that has a newer version (the `outdated`
   * check, bounded by a timeout); an unreachable registry lists nothing.
   */
  'registry.outdated': Method<void, RegistryUpdateView[]>;
  /**
   * Updates a backend added from a registry to its latest version (the CLI's
   * `update`): with `dryRun`, only what would change; else checked, then saved.
   */
  'registry.update': Method<{ id: string; dryRun?: boolean }, RegistryUpdatePlanView>;
  'env.path': Method<void, PathView>;
  /** Sets the directories put in front of every stdio backend's PATH (`proxy.extraPath`; absolute, existing). */
  'env.setExtraPath': Method<{ paths: string[] }, PathView>;
  /** Reads a .mcpb bundle's manifest (validated; nothing installed), for the Add server screen. */
  'bundles.inspect': Method<BundleUpload, BundleView>;
  /** Installs a .mcpb bundle: unpacked, checked by starting it, then saved (a bad one leaves nothing behind). */
  'bundles.install': Method<
    BundleUpload & { id?: string; values: Record<string, string | string[]> },
    { id: string; secrets: string[]; tools?: number }
  >;
}

/** Every event the core sends, by name; each is an invalidation. */
export interface CoreEventMap {
  /** Backends were added, removed, edited, or changed health. */
  backendsChanged: { backendId?: string };
  /** The merged catalog changed. */
  catalogChanged: Record<string, never>;
  /** Rules, profiles or tokens changed. */
  policyChanged: Record<string, never>;
  approvalsChanged: Record<string, never>;
  pinsChanged: Record<string, never>;
  sessionsChanged: Record<string, never>;
  /** New entries in the request log. */
  logAppended: Record<string, never>;
  /** A hand edit of the config file was refused, or an earlier refusal cleared. */
  configChanged: { error?: string };
}

/** A method's name. */
export type MethodName = keyof CoreMethods;
/** An event's name. */
export type EventName = keyof CoreEventMap;
/** Parameters of method M. */
export type ParamsOf<M extends MethodName> = CoreMethods[M]['params'];
/** Result of method M. */
export type ResultOf<M extends MethodName> = CoreMethods[M]['result'];

/** How every call settles: a result, or an error as data. */
export type CallOutcome<R> = { ok: true; result: R } | { ok: false; error: ErrorData };

/** Implementation of every method: the core side of both pipes. A missing method fails to compile. */
export type CoreHandlers = {
  [M in MethodName]: (params: ParamsOf<M>) => Promise<ResultOf<M>>;
};

/** What the renderer calls, whatever the pipe: every method returns its outcome, never throws. */
export interface CoreClient {
  call<M extends MethodName>(
    method: M,
    ...params: ParamsOf<M> extends void ? [] : [ParamsOf<M>]
  ): Promise<CallOutcome<ResultOf<M>>>;
  on<E extends EventName>(event: E, listener: (payload: CoreEventMap[E]) => void): () => void;
}

/**
 * The method names, as a value: the preload exposes exactly these and the
 * bridge accepts exactly these. `satisfies` makes a missing or extra name a
 * compile error.
 */
export const METHOD_NAMES = Object.keys({
  'app.info': 1,
  'backends.list': 1,
  'backends.check': 1,
  'backends.add': 1,
  'backends.parseSnippet': 1,
  'backends.update': 1,
  'backends.remove': 1,
  'backends.setEnabled': 1,
  'backends.restart': 1,
  'backends.refresh': 1,
  'backends.authorize': 1,
  'backends.signOut': 1,
  'secrets.set': 1,
  'secrets.list': 1,
  'catalog.list': 1,
  'catalog.callTool': 1,
  'catalog.getPrompt': 1,
  'catalog.readResource': 1,
  'policy.get': 1,
  'policy.setRule': 1,
  'policy.setBackend': 1,
  'approvals.list': 1,
  'approvals.resolve': 1,
  'pins.list': 1,
  'pins.approve': 1,
  'profiles.list': 1,
  'profiles.createToken': 1,
  'profiles.rotateToken': 1,
  'profiles.revoke': 1,
  'profiles.setExposure': 1,
  'sessions.list': 1,
  'log.query': 1,
  'clients.list': 1,
  'clients.install': 1,
  'clients.uninstall': 1,
  'clients.snippet': 1,
  'clients.importable': 1,
  'clients.import': 1,
  'config.backups': 1,
  'config.restore': 1,
  'registry.search': 1,
  'registry.add': 1,
  'registry.outdated': 1,
  'registry.update': 1,
  'env.path': 1,
  'env.setExtraPath': 1,
  'bundles.inspect': 1,
  'bundles.install': 1,
} satisfies Record<MethodName, 1>) as MethodName[];

/** The event names, as a value. */
export const EVENT_NAMES = Object.keys({
  backendsChanged: 1,
  catalogChanged: 1,
  policyChanged: 1,
  approvalsChanged: 1,
  pinsChanged: 1,
  sessionsChanged: 1,
  logAppended: 1,
  configChanged: 1,
} satisfies Record<EventName, 1>) as EventName[];
