/**
 * Every method of the contract in one place: its parameters as a zod schema
 * (parsed once, by the host's `dispatch`, before any handler runs) and its
 * result type. `shared/contract.ts` derives the TypeScript types from this
 * map, so a parameter is declared once. Adding a method: one entry here, one
 * handler in electron/host (a missing handler fails to compile).
 *
 * Schemas strip unknown keys (an older or newer UI keeps working) and never
 * quote the value they refuse (a secret must not reach an error message).
 */
import { z } from 'zod';
import { EXPOSURES } from './model/exposure.js';
import { ItemAsToolSchema, OVERRIDE_SECTIONS, ToolOverrideSchema, type OverrideView } from './model/overrides.js';
import type { BundleView } from './model/bundleViews.js';
import type { AddPreviewView, LearnView, SandboxServerView, SandboxSettingsView } from './model/sandboxViews.js';
import type { SnippetView } from './model/snippetViews.js';
import type { PathView, RegistryPageView, RegistryUpdatePlanView, RegistryUpdateView } from './model/registryViews.js';
import type { BackendHealth } from './model/health.js';
import type { TaskView } from './model/taskViews.js';
import type { ServerReviewSummary, ServerReviewView } from './model/reviewViews.js';
import type { ScanReport } from './model/scanViews.js';
import type { ProfileExportView, ProfileImportPreviewView, ProfileImportView } from './model/profileFileViews.js';
import type { CallerConnectionView, ConnectionView } from './model/connectionViews.js';
import type { MeView } from './model/meViews.js';
import type { SkillsInstallView } from './model/skillsViews.js';
import {
  LOG_KINDS,
  LOG_OUTCOMES,
  POLICY_KINDS,
  RULES,
  type AppInfo,
  type ApprovalView,
  type BackendCheck,
  type BackendView,
  type CatalogAccessView,
  type CatalogEntry,
  type ClientAppView,
  type ConfigBackupView,
  type FoundToolView,
  type ImportCandidateView,
  type LogEntryView,
  type PinChangeView,
  type PolicyView,
  type ProfileView,
  type SessionView,
  type TryInputView,
  type TryResult,
} from './model/views.js';

/** A method: its params schema and (as a type only) its result. */
export interface MethodSpec<S extends z.ZodType, R> {
  params: S;
  /** A type only (never set at run time): the method's result. */
  result: R;
}

/** Declares a method; `R` is its result type. */
const method =
  <R>() =>
  <S extends z.ZodType>(params: S): MethodSpec<S, R> =>
    ({ params }) as MethodSpec<S, R>;

/** The params of a method that takes none: whatever comes is dropped. */
export const noParams = z.unknown().transform((): void => undefined);

/** Params whose fields are all optional: absent params are `{}`. */
const optionalFields = <S extends z.ZodRawShape>(shape: S) =>
  z
    .object(shape)
    .optional()
    .transform((value) => value ?? ({} as z.output<z.ZodObject<S>>));

const text = z.string().min(1, 'must not be empty');
/** Values of a registry entry's or bundle's inputs (repeated ones as lists). */
const inputValues = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
/** A .mcpb file sent by the browser: its name and its bytes in base64 (bounded by the handler). */
const bundleUpload = z.object({ fileName: text, data: z.string() });
/** Without an OS keychain, where secret values go: a `${VAR}` reference, or config.json in plain text. */
const secretStorage = z.enum(['reference', 'config']);
const entry = z.record(z.string(), z.unknown());
const idRef = z.object({ id: text });
/** One grant on a server's sandbox: a path to read or write (absolute or `~/...`), or a host. */
const sandboxGrant = z.object({ kind: z.enum(['read', 'write', 'host']), target: text });
/** Which override: a server's item (original name or URI) in one section, and optionally a profile's level. */
const overrideTarget = z.object({
  backendId: text,
  section: z.enum(OVERRIDE_SECTIONS),
  original: text,
  profile: z.string().optional(),
});
const clientRef = z.object({ client: text });
/** A profile file's text (read by the renderer from the file the user picked; 1 MB at most). */
const profileFile = z.object({
  text: z.string().min(1, 'must not be empty').max(1_000_000, 'must be at most 1 MB'),
  as: z.string().optional(),
  replace: z.boolean().optional(),
});

/** Filters of `log.query`. */
export const logQuerySchema = z.object({
  client: z.string().optional(),
  backend: z.string().optional(),
  outcome: z.enum(LOG_OUTCOMES).optional(),
  kind: z.enum(LOG_KINDS).optional(),
  since: z.string().optional(),
  limit: z.number().int().nonnegative().optional(),
  /** Gateway mode: the person's subject or email. */
  principal: z.string().optional(),
});
/** Filters for the request log. */
export type LogQueryView = z.input<typeof logQuerySchema>;

type ClientWrite = { path: string; changed: boolean; backup?: string };

/** Every method the UI may call, by name. */
export const METHODS = {
  'app.info': method<AppInfo>()(noParams),

  'backends.list': method<BackendView[]>()(noParams),
  /** Connects to a server and lists its catalog without saving anything (cancellable). */
  'backends.check': method<BackendCheck>()(z.object({ id: text, entry })),
  /** Checks, then saves and starts the backend; refused (nothing saved) when the check fails, unless `force`. */
  'backends.add': method<BackendView>()(z.object({ id: text, entry, force: z.boolean().optional() })),
  /** Reads a pasted Claude Desktop / Cursor / VS Code `mcpServers` (or `servers`) snippet into backend entries. */
  /**
   * Reads a pasted snippet; with a keychain its secrets move there now. Without one, `secretStorage` says where
   * they go; absent then: refused with `data.field: 'secretStorage'` naming the variables, nothing written.
   */
  'backends.parseSnippet': method<SnippetView>()(z.object({ text, secretStorage: secretStorage.optional() })),
  'backends.update': method<BackendView>()(z.object({ id: text, entry })),
  'backends.remove': method<void>()(idRef),
  'backends.setEnabled': method<BackendView>()(z.object({ id: text, enabled: z.boolean() })),
  'backends.restart': method<BackendHealth>()(idRef),
  'backends.refresh': method<BackendHealth>()(idRef),
  /** Starts OAuth for a remote backend; the browser opens on the returned URL. */
  'backends.authorize': method<{ authorizationUrl: string }>()(idRef),
  'backends.signOut': method<void>()(idRef),

  /** Stores a secret value in the OS keychain under `name` (write-only). */
  'secrets.set': method<void>()(
    z.object({
      name: z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'a secret name uses letters, digits, ".", "_" and "-"'),
      value: text,
    }),
  ),
  /** Names of stored secrets (never values). */
  'secrets.list': method<string[]>()(noParams),

  'catalog.list': method<CatalogEntry[]>()(noParams),
  /** What one profile (`*` or absent: the main token) gets of every item, and what its tools/list costs. */
  'catalog.access': method<CatalogAccessView>()(optionalFields({ profile: z.string().optional() })),
  /** Runs `search_tools` as that profile would (same index, same visibility), best first. */
  'catalog.search': method<FoundToolView[]>()(
    z.object({ profile: z.string().optional(), query: text, limit: z.number().int().min(1).max(50).optional() }),
  ),
  /**
   * Calls a tool as the main token, or as `profile` (its rules apply; a denied
   * tool says so). `callId` (chosen by the UI) names the call in `tryProgress`
   * events, in `catalog.inputs` and for `catalog.cancelCall`; cancellable
   * either way (the backend gets notifications/cancelled).
   */
  'catalog.callTool': method<TryResult>()(
    z.object({
      name: text,
      arguments: z.record(z.string(), z.unknown()).default({}),
      profile: z.string().optional(),
      callId: text.optional(),
    }),
  ),
  'catalog.getPrompt': method<TryResult>()(
    z.object({ name: text, arguments: z.record(z.string(), z.string()).default({}), callId: text.optional() }),
  ),
  'catalog.readResource': method<TryResult>()(z.object({ uri: text, callId: text.optional() })),
  /** Cancels a "try it" call in flight: the server gets `notifications/cancelled`; the call answers `cancelled`. */
  'catalog.cancelCall': method<{ cancelled: boolean }>()(z.object({ callId: text })),
  /** Elicitation requests of "try it" calls waiting for the person at the UI. */
  'catalog.inputs': method<TryInputView[]>()(noParams),
  /** Answers one of `catalog.inputs` (accept with content, decline, cancel). */
  'catalog.answerInput': method<void>()(
    z.object({
      id: text,
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z.record(z.string(), z.unknown()).optional(),
    }),
  ),

  /**
   * One item's tool override at a level (a server's; with `profile`, that profile's laid over it), the
   * server's own definition, and what the model sees with `draft` (absent: as saved; `null`: none) and
   * its token cost; `problems` names each wrong field by dotted path.
   */
  'overrides.get': method<OverrideView>()(
    overrideTarget.extend({ draft: z.record(z.string(), z.unknown()).nullable().optional() }),
  ),
  /** Saves (`override: null`: removes) one override; refused (`config_invalid`, naming the field), nothing saved, when wrong. */
  'overrides.set': method<void>()(
    overrideTarget.extend({ override: z.union([ToolOverrideSchema, ItemAsToolSchema]).nullable() }),
  ),

  /** `profile` absent or `*`: the rules every client gets. */
  'policy.get': method<PolicyView>()(optionalFields({ profile: z.string().optional() })),
  'policy.setRule': method<void>()(
    z.object({
      backendId: text,
      kind: z.enum(POLICY_KINDS),
      original: text,
      rule: z.enum(RULES).nullable(),
      profile: z.string().optional(),
    }),
  ),
  /** Sets several rules in one write (the Authorization screen's bulk actions); `rule: null` removes one. */
  'policy.setRules': method<void>()(
    z.object({
      profile: z.string().optional(),
      rules: z.array(
        z.object({ backendId: text, kind: z.enum(POLICY_KINDS), original: text, rule: z.enum(RULES).nullable() }),
      ),
    }),
  ),
  /**
   * Server-wide settings; or, with a `profile`, only `visible`: whether that
   * profile sees the server (its `backends` list).
   */
  'policy.setBackend': method<void>()(
    z.object({
      backendId: text,
      profile: z.string().optional(),
      visible: z.boolean().optional(),
      enabled: z.boolean().optional(),
      defaultRule: z.enum(['allow', 'deny']).optional(),
      pinning: z.boolean().optional(),
      capture: z.boolean().optional(),
    }),
  ),

  'approvals.list': method<ApprovalView[]>()(noParams),
  'approvals.resolve': method<void>()(z.object({ id: text, decision: z.enum(['once', 'always', 'deny']) })),
  'pins.list': method<PinChangeView[]>()(noParams),
  'pins.approve': method<void>()(z.object({ backendId: text, tool: text })),
  /** The local user's connections to per-caller servers (`credentials: "per-caller"`); unconnected ones carry a sign-in link. */
  'connections.list': method<ConnectionView[]>()(noParams),
  /** Forgets the local user's tokens for one per-caller server and closes their upstream connection. */
  'connections.revoke': method<{ revoked: boolean }>()(z.object({ server: text })),
  /** Administrators: everyone signed in to each per-caller server (who, since when, expiry; never a token). */
  'connections.everyone': method<CallerConnectionView[]>()(noParams),
  /** Administrators: forgets one person's tokens for one per-caller server (`caller` from `connections.everyone`) and closes their connection. */
  'connections.revokeCaller': method<{ revoked: boolean }>()(z.object({ server: text, caller: text })),

  /** Every server's review state (quarantine, held changes) and scan summary, in config order. */
  'reviews.list': method<ServerReviewSummary[]>()(noParams),
  /** One server's review: launch line, sandbox, each item with its findings, held changes with their diffs. */
  'reviews.get': method<ServerReviewView>()(idRef),
  /** The scan's reports: one server's (`id`), or every server's. */
  'reviews.scans': method<ScanReport[]>()(optionalFields({ id: text.optional() })),
  /**
   * Approves a quarantined server (its launch line and the tool changes held for it); its items are served at once.
   * A server with a high-severity finding needs `confirmHigh: true` (else `confirmation_required` naming them);
   * `holdFlagged: true` keeps its tools with a finding (medium or higher) held, to approve one by one.
   */
  'reviews.approveServer': method<ServerReviewView>()(
    z.object({ id: text, confirmHigh: z.boolean().optional(), holdFlagged: z.boolean().optional() }),
  ),
  /** Puts an approved server back under review (quarantined, under the strict sandbox) until approved again. */
  'reviews.quarantine': method<ServerReviewView>()(idRef),
  /** Records the choice to start a quarantined server unsandboxed where no sandbox can run. */
  'reviews.startUnsandboxed': method<ServerReviewView>()(idRef),
  /** Approves one held tool change of a server (`unknown_change` when none is held). */
  'reviews.approveChange': method<ServerReviewView>()(z.object({ id: text, tool: text })),

  'profiles.list': method<ProfileView[]>()(noParams),
  /** `name` absent: the ID. */
  'profiles.createToken': method<{ token: string }>()(
    z
      .object({ id: text, name: text.optional(), backends: z.array(z.string()).optional() })
      .transform((profile) => ({ ...profile, name: profile.name ?? profile.id })),
  ),
  'profiles.rotateToken': method<{ token: string }>()(idRef),
  'profiles.revoke': method<void>()(idRef),
  /**
   * Sets a profile's exposure (one of `EXPOSURES`; `null` for the policy's default);
   * `id: "*"` sets the policy's default, which the main token gets (`null`: `all`).
   */
  'profiles.setExposure': method<void>()(z.object({ id: text, exposure: z.enum(EXPOSURES).nullable() })),
  /** A profile as a profile file (docs/profiles.md); `servers`: with its servers, secrets as named inputs. */
  'profiles.export': method<ProfileExportView>()(z.object({ id: text, servers: z.boolean().optional() })),
  /** What importing a profile file would change (names only); `config_invalid` naming each field when it does not validate. */
  'profiles.previewImport': method<ProfileImportPreviewView>()(profileFile),
  /**
   * Imports a profile file: `secrets` are the inputs' values by name (one way: never sent back), kept in the
   * keychain; the rest in one config write. Nothing changes when it is refused.
   */
  'profiles.import': method<ProfileImportView>()(
    profileFile.extend({ secrets: z.record(z.string(), z.string()).default({}) }),
  ),
  'sessions.list': method<SessionView[]>()(noParams),
  /** Every task of this instance (MCP tasks through the proxy), newest first; in memory only. */
  'tasks.list': method<TaskView[]>()(noParams),
  /** Cancels a running task (the backend's task too); `cancelled: false` when it is unknown or has ended. */
  'tasks.cancel': method<{ cancelled: boolean }>()(z.object({ id: text })),
  'log.query': method<LogEntryView[]>()(optionalFields(logQuerySchema.shape)),

  'clients.list': method<ClientAppView[]>()(noParams),
  'clients.install': method<ClientWrite & { notes: string[] }>()(clientRef.extend({ project: z.string().optional() })),
  'clients.uninstall': method<ClientWrite>()(clientRef.extend({ project: z.string().optional() })),
  'clients.snippet': method<{ text: string }>()(clientRef),
  'clients.importable': method<ImportCandidateView[]>()(clientRef),
  'clients.import': method<{ imported: string[] }>()(
    clientRef.extend({ names: z.array(z.string()), replace: z.boolean().optional() }),
  ),
  /**
   * Writes the skills the client's profile may use into its skills folder (kept in sync from then on);
   * `preview`: only says what it would write and remove, and where.
   */
  'clients.installSkills': method<SkillsInstallView>()(clientRef.extend({ preview: z.boolean().optional() })),

  /** The kept copies of the config file, newest first (the last 20, one before each write). */
  'config.backups': method<ConfigBackupView[]>()(noParams),
  /** Puts backup `index` (default 1, the newest) back; the file it replaces becomes the newest backup. */
  'config.restore': method<ConfigBackupView>()(
    optionalFields({ index: z.number().int().min(1, 'must be a backup number (1 is the newest)').optional() }),
  ),
  /** MCP registries (registry/): search pages, adding an entry, and the PATH stdio backends get. */
  'registry.search': method<RegistryPageView>()(
    z.object({ text: z.string().default(''), cursor: z.string().optional() }),
  ),
  /** `needsAuthorization`: the server answered 401; saved, and its OAuth sign-in started at `authorizationUrl`. */
  'registry.add': method<{
    id: string;
    secrets: string[];
    tools?: number;
    needsAuthorization?: boolean;
    authorizationUrl?: string;
  }>()(
    z.object({
      ref: text,
      id: z.string().optional(),
      values: inputValues,
      choice: z.union([z.object({ package: z.number().int() }), z.object({ remote: z.number().int() })]).optional(),
      /**
       * Without an OS keychain, where secret values go: `reference` (a `${VAR}` the user sets) or `config`
       * (config.json, plain text). Absent then: refused with `data.field: 'secretStorage'` naming the variables.
       */
      secretStorage: secretStorage.optional(),
      /** Where no sandbox can run: run it with the user's rights, by choice (saved as `"sandbox": false`). */
      unsandboxed: z.boolean().optional(),
    }),
  ),
  /**
   * Backends added from a registry that has a newer version (the `outdated`
   * check, bounded by a timeout); an unreachable registry lists nothing.
   */
  'registry.outdated': method<RegistryUpdateView[]>()(noParams),
  /** What `registry.add` with these values would run and under which sandbox; nothing is started or saved. */
  'registry.preview': method<AddPreviewView>()(
    z.object({
      ref: text,
      values: inputValues,
      choice: z.union([z.object({ package: z.number().int() }), z.object({ remote: z.number().int() })]).optional(),
    }),
  ),
  /**
   * Updates a backend added from a registry to its latest version (the CLI's
   * `update`): with `dryRun`, only what would change; else checked, then saved.
   */
  'registry.update': method<RegistryUpdatePlanView>()(z.object({ id: text, dryRun: z.boolean().optional() })),
  'env.path': method<PathView>()(noParams),
  /** Sets the directories put in front of every stdio backend's PATH (`proxy.extraPath`; absolute, existing). */
  'env.setExtraPath': method<PathView>()(z.object({ paths: z.array(z.string()) })),
  /** Whether servers can be sandboxed here, and `proxy.defaultSandbox` (saved, and in force). */
  'sandbox.settings': method<SandboxSettingsView>()(noParams),
  /** Saves `proxy.defaultSandbox`: servers without a sandbox setting of their own run sandboxed (after a restart). */
  'sandbox.setDefault': method<SandboxSettingsView>()(z.object({ enabled: z.boolean() })),
  /** One server's sandbox: its setting, what it was refused, its grants and what its launch points at outside it. */
  'sandbox.server': method<SandboxServerView>()(idRef),
  /** Adds one grant to a server's sandbox (`sandbox.read`, `sandbox.write` or its hosts); saved, and the server restarts. */
  'sandbox.grant': method<SandboxServerView>()(z.object({ id: text, grant: sandboxGrant })),
  /** Takes one grant away from a server's sandbox; saved, and the server restarts. */
  'sandbox.revoke': method<SandboxServerView>()(z.object({ id: text, grant: sandboxGrant })),
  /** Turns a server's sandbox on or off (grants kept); saved, and the server restarts. */
  'sandbox.setEnabled': method<SandboxServerView>()(z.object({ id: text, enabled: z.boolean() })),
  /**
   * Learns a stdio server's permissions (Linux; `not_supported` naming the platform elsewhere): runs it
   * once recorded, lists everything, makes `calls`, keeps it up `windowMs`, and proposes the smallest
   * grant covering what it did, as a diff against its `sandbox`. Nothing is saved.
   */
  'sandbox.learn': method<LearnView>()(
    z.object({
      id: text,
      calls: z
        .array(z.object({ name: text, arguments: z.record(z.string(), z.unknown()).optional() }))
        .max(50)
        .optional(),
      windowMs: z.number().int().min(0).max(600_000).optional(),
    }),
  ),
  /** Saves a (learned, possibly edited) grant as the server's `sandbox`, on; the server restarts under it. */
  'sandbox.acceptLearned': method<BackendHealth>()(
    z.object({
      id: text,
      read: z.array(text).max(200),
      write: z.array(text).max(200),
      network: z.union([z.enum(['none', 'all']), z.array(text).max(200)]),
    }),
  ),
  /** Reads a .mcpb bundle's manifest (validated; nothing installed), for the Add server screen. */
  'bundles.inspect': method<BundleView>()(bundleUpload),
  /** Installs a .mcpb bundle: unpacked, checked by starting it, then saved (a bad one leaves nothing behind). */
  'bundles.install': method<{ id: string; secrets: string[]; tools?: number }>()(
    bundleUpload.extend({
      id: z.string().optional(),
      values: inputValues.default({}),
      /** Without an OS keychain, where sensitive user_config values go (as `registry.add`'s). */
      secretStorage: secretStorage.optional(),
      /** As `registry.add`'s: run it unsandboxed, by choice. */
      unsandboxed: z.boolean().optional(),
    }),
  ),

  /** The UI's viewer: admin or not, who they are, what their profile lets them use, their connections. */
  'me.get': method<MeView>()(noParams),
  /** The viewer's own recent calls (gateway mode: their audit entries only), newest first. */
  'me.calls': method<LogEntryView[]>()(
    optionalFields({ limit: z.number().int().min(1).max(1000, 'must be at most 1000').optional() }),
  ),
  /** Forgets the viewer's own tokens for a per-caller server and closes their connection. */
  'me.connections.revoke': method<{ revoked: boolean }>()(z.object({ server: text })),
} as const;
