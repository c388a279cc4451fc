/**
 * The core's public surface: a few narrow services, each an interface that
 * the host (electron/host), the frontends (core/frontend) and the shell
 * (electron/main.ts) depend on instead of the core's parts (VS Code's service
 * interfaces). They are declared here first, in terms of the SDK's, shared/'s,
 * the config's and the catalog's types; SwitchboardCore
 * (core/switchboard/switchboardCore.ts) implements them with its parts (the
 * router, access control, the task service ...), which stay behind this surface.
 */
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import type {
  CallToolRequestParams,
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  CreateTaskResult,
  GetPromptRequestParams,
  GetPromptResult,
  InputRequiredResult,
  ReadResourceRequestParams,
  ReadResourceResult,
  Resource,
  Task,
  Tool,
} from '@modelcontextprotocol/server';
import type { Exposure, ExposureInForce } from '../../../shared/model/exposure.js';
import type { BackendHealth, Readiness } from '../../../shared/model/health.js';
import type { CallerConnectionView, ConnectionView } from '../../../shared/model/connectionViews.js';
import type { PolicyView, SessionView } from '../../../shared/model/views.js';
import type { ServerReviewSummary, ServerReviewView } from '../../../shared/model/reviewViews.js';
import type { ScanReport } from '../../../shared/model/scanViews.js';
import type { Catalog, CatalogInput, ItemOrigin } from '../catalog/catalog.js';
import type { OverrideView } from '../../../shared/model/overrides.js';
import type { OverrideTarget } from '../catalog/overrides/overrideEdit.js';
import type { AnyToolOverride } from '../catalog/overrides/toolSource.js';
import type { ApprovalDecision, ApprovalRequest } from '../catalog/policy/approvals.js';
import type { AuditEntry, AuditQuery } from '../catalog/policy/auditLog.js';
import type { ClientTokens } from '../catalog/policy/clientTokens.js';
import type { ClientView } from '../catalog/policy/policyEngine.js';
import type { PinChange } from '../catalog/policy/pinStore.js';
import type { BackendSettings, RuleChange } from '../catalog/policy/policyService.js';
import type { LoadedTools } from '../frontend/exposure/loadedTools.js';
import type { FoundSkill, FoundTool } from '../frontend/exposure/toolExposure.js';
import type { CodeTools, SuspendedRuns } from '../frontend/exposure/code/codeRun.js';
import type { UpdateSink } from '../frontend/relay/coalescingSink.js';
import type { RouteOptions } from '../frontend/routing/router.js';
import type { CallerIdentity } from '../catalog/policy/callerIdentity.js';
import type { SessionInfo } from '../frontend/sessions/sessionRegistry.js';
import type { ProxyTask } from '../frontend/tasks/proxyTask.js';
import type { TaskChange } from '../frontend/tasks/taskRegistry.js';
import type { TaskDetail, TaskFollow, TaskPage } from '../frontend/tasks/taskService.js';
import type { TaskRequestOptions } from '../frontend/tasks/taskWork.js';
import type { AuthStatusEntry } from '../platform/auth/authRegistry.js';
import type { ConfigStore } from '../platform/config/configStore.js';
import type { ClientProfile, ItemKind, Policy, ToolRule } from '../platform/config/policyConfig.js';
import type { BackendConfig, ProxyOptions } from '../platform/config/schema.js';
import type { GatewayConfig } from '../platform/config/gatewayConfig.js';
import type { CoreDeps } from '../platform/deps.js';
import type { SecretStore } from '../platform/secrets/secretStore.js';
import type { CoreEvents } from './events.js';

/** The backends: their configs, health and runtime changes (saved to the config file). */
export interface BackendsService {
  /** Health of every configured backend, in config order. Contains no secrets. */
  health(): BackendHealth[];
  /** Ready once every enabled backend finished its first attempt and one is up (or none is configured). */
  readiness(): Readiness;
  /** The backends' configs in force (a new array after every change). */
  backendConfigs(): readonly BackendConfig[];
  /** The proxy options in force. */
  proxyOptions(): ProxyOptions;
  /** Adds a backend once it connected, listed and was admitted, and saves it. */
  addBackend(id: string, entry: unknown, options?: { persist?: boolean }): Promise<BackendHealth>;
  /** Replaces a backend's config, saved, and restarts it. */
  updateBackend(id: string, entry: unknown, options?: { persist?: boolean }): Promise<BackendHealth>;
  /** Removes a backend, from the config file too unless `persist` is false. */
  removeBackend(id: string, options?: { persist?: boolean }): Promise<void>;
  /** Re-lists a backend's catalog now. */
  refreshBackend(id: string): Promise<BackendHealth>;
  /** Restarts a backend now (resets its reconnect backoff). */
  restartBackend(id: string): Promise<BackendHealth>;
  /** Probes every live backend now. */
  probeAll(): Promise<void>;
}

/** Calls into the merged catalog, routed to the owning backend under the policy (the UI's Try it, the frontends). */
export interface CallsService {
  /** tools/call: exposed name -> owning backend, original name. May answer `input_required` (2026-07-28). */
  callTool(params: CallToolRequestParams, options?: RouteOptions): Promise<CallToolResult | InputRequiredResult>;
  /**
   * A tools/call's rate limits (`policy.limits`), taken once per client request before it is routed:
   * undefined at once when none applies, else rejects with the retryable `rate_limited` error when one refuses.
   */
  limitTool(params: CallToolRequestParams, options?: RouteOptions): Promise<void> | undefined;
  /** prompts/get: exposed name -> owning backend, original name. May answer `input_required`. */
  getPrompt(params: GetPromptRequestParams, options?: RouteOptions): Promise<GetPromptResult | InputRequiredResult>;
  /** resources/read: advertised URI -> owning backend, original URI. May answer `input_required`. */
  readResource(
    params: ReadResourceRequestParams,
    options?: RouteOptions,
  ): Promise<ReadResourceResult | InputRequiredResult>;
  /** completion/complete for a prompt argument or a resource template variable. */
  complete(params: CompleteRequestParams, options?: RouteOptions): Promise<CompleteResult>;
  /** skills/get (SEP-2640): an advertised SKILL.md URI to its owner's entry, under advertised URIs. */
  getSkill(uri: string, options?: RouteOptions): Promise<Skill>;
  /** resources/directory/read of a folder inside a skill: its children under advertised URIs. */
  readSkillDirectory(uri: string, options?: RouteOptions): Promise<{ resources: Resource[] }>;
}

/** The policy in force, its decisions and its changes; tool pins. */
export interface PolicyService {
  /** The policy in force. */
  readonly current: Policy;
  /** A client's rule for one item of a backend (its own name or URI). */
  rule(client: string, kind: ItemKind, backendId: string, original: string): ToolRule;
  /** What a client sees of a catalog. */
  view(client: string, catalog: Catalog): ClientView;
  /** Changes the policy (on the config file's current policy); see AccessControl.update. */
  update(mutate: (policy: Policy) => void): Promise<Policy>;
  /** Every item's rule for a profile (`*` or absent: everyone) with its layers, and the servers' settings (the Authorization screen). */
  authorizationView(profile?: string): Omit<PolicyView, 'tools'>;
  /** Sets (`null`: clears) one rule, for every client (`*` or absent) or for one profile. */
  setRule(backendId: string, kind: ItemKind, original: string, rule: ToolRule | null, profile?: string): Promise<void>;
  /** Sets several rules for everyone or one profile in one write. */
  setRules(changes: readonly RuleChange[], profile?: string): Promise<void>;
  /** A server's settings, or whether one profile sees it. */
  setBackend(settings: BackendSettings): Promise<void>;
  /** A profile's exposure (`null`: the policy's default), or (`*`) the policy's default itself. */
  setExposure(client: string, exposure: Exposure | null): Promise<void>;
  /** Tool definitions that changed and wait for the user's approval (old vs new). */
  pinChanges(): PinChange[];
  /** Approves a changed tool definition: the tool is shown again, its new definition pinned. */
  approvePin(backendId: string, tool: string): Promise<void>;
}

/** Tool overrides: one item's at a level, with what the model would see; saving one (catalog/overrides/). */
export interface OverridesService {
  /** The override at `target`'s level, what it inherits, and the preview with `draft` (absent: as saved; `null`: none). */
  view(target: OverrideTarget, draft?: unknown): OverrideView;
  /** Saves (`null`: removes) one override; refused (`config_invalid`, naming each field) when its shape or a value is wrong. */
  set(target: OverrideTarget, override: AnyToolOverride | null): Promise<void>;
}

/** Quarantine and reviewed changes: each server's review, the scan's reports, the user's approvals. */
export interface ReviewsService {
  /** Every server's review state and scan summary, in config order. */
  list(): ServerReviewSummary[];
  /** One server's review (throws `unknown_backend`). */
  review(backendId: string): ServerReviewView;
  /** Scan reports: one server's, or every server's. */
  scans(backendId?: string): ScanReport[];
  /**
   * Approves a server (its launch line and the tool changes held for it); its items are served at once.
   * Past a high-severity finding only with `confirmHigh` (else `confirmation_required`, naming them);
   * `holdFlagged`: the tools with a finding of medium or higher stay held, to approve one by one.
   */
  approveServer(
    backendId: string,
    options?: { confirmHigh?: boolean; holdFlagged?: boolean },
  ): Promise<ServerReviewView>;
  /** Puts a server back under review (quarantined, under the strict sandbox) until approved again. */
  quarantineAgain(backendId: string): Promise<ServerReviewView>;
  /** Records the choice to start a quarantined server unsandboxed where no sandbox runs. */
  startUnsandboxed(backendId: string): Promise<ServerReviewView>;
  /** Approves one held tool change (throws `unknown_change`). */
  approveChange(backendId: string, tool: string): Promise<ServerReviewView>;
}

/** Pending `ask` approvals and the approver (the UI) that answers them. */
export interface ApprovalsService {
  /** Attaches the approver (the UI): `ask` calls wait for it; returns the function that detaches it. */
  attach(): () => void;
  /** The approvals waiting for an answer, oldest first. */
  pending(): ApprovalRequest[];
  /** Answers one; false when it is no longer pending. */
  resolve(id: string, decision: ApprovalDecision): boolean;
  /** Every pending approval: this process's, and with replicas every live replica's (what the UI lists). */
  list(): Promise<ApprovalRequest[]>;
  /** Answers one held here or by another replica (taken once); false when it is no longer pending. */
  answer(id: string, decision: ApprovalDecision): Promise<boolean>;
}

/** Client profiles and their tokens. */
export interface ProfilesService {
  /** Creates a profile; returns its new bearer token (shown once, stored as a digest). */
  createProfile(client: string, profile: ClientProfile): Promise<string>;
  /** A new token for a profile; its sessions end. */
  rotateToken(client: string): Promise<string>;
  /** Removes a profile and its token; its sessions end. */
  revokeProfile(client: string): Promise<void>;
  /** The profile a bearer token belongs to, if any. */
  authenticate(token: string): string | undefined;
  /** Like `authenticate`, re-reading the token file and policy (rate-limited) before saying a token is unknown. */
  authenticateRechecking(token: string): Promise<string | undefined>;
}

/** What a session says of itself at initialize (each part only when it says it). */
export interface SessionIdentity {
  era?: SessionView['era'];
  clientName?: string;
  clientVersion?: string;
}

/** Frontend sessions connected over HTTP or stdio (no tokens). */
export interface SessionsService {
  /** Every connected session, for the UI. */
  list(): SessionView[];
  /** Subscribes to any change; returns the function that unsubscribes. */
  onChange(listener: () => void): () => void;
  /** Registers a session; returns its ID. */
  open(info: SessionInfo, id?: string): string;
  /** Records what a session said of itself at initialize. */
  identify(id: string, update: SessionIdentity): void;
  /** Records activity on a session. */
  touch(id: string): void;
  /** Records a 2026-07-28 client's request (that era has no session). */
  seenModern(info: Omit<SessionInfo, 'era'>): void;
  close(id: string): void;
  /** Forgets a profile's 2026-07-28 clients (its token was revoked). */
  closeModern(profile: string): void;
}

/** Each client's tools/list by its exposure (all or search), and tool search. */
export interface ExposureService {
  /** The exposure in force for a client (its profile's, else the policy's default). */
  mode(client: string): ExposureInForce;
  /** The tools a client lists: all it may use, or the search meta-tools, pinned and loaded tools. */
  list(client: string, loaded?: LoadedTools): Tool[];
  /** A fingerprint of `list` (list_changed is sent only when it moves). */
  fingerprint(client: string, loaded?: LoadedTools): string;
  /** How many tools the client may use, listed or not. */
  reachable(client: string): number;
  /** Search over the tools the client may use. */
  search(client: string, query: string, limit: number): FoundTool[];
  /** Counts a call for a profile with `pinMostUsed` (its most-called tools are listed in search mode). */
  counted(client: string, name: string): void;
  /** The best matching skills the client may use, best first (for clients that declare the skills extension). */
  searchSkills(client: string, query: string, limit: number): FoundSkill[];
  /** The meta-tools the client's search-mode list starts with (`search_tools` naming its servers). */
  metaToolsFor(client: string): Tool[];
  /** A tool the client may use, by the name it sees; undefined for any other name. */
  visible(client: string, name: string): Tool | undefined;
  /** The named tools in full (`describe_tools`); names the client does not see are left out. */
  describe(client: string, names: readonly string[]): FoundTool[];
  /** Adds found tools to a session's list (`search+load`); true when it changed. */
  load(client: string, loaded: LoadedTools, found: readonly FoundTool[]): boolean;
  /** Whether a client has code mode's `run_code`. */
  runsCode(client: string): boolean;
  /** Code mode's functions for a client (undefined: it has no `run_code`). */
  codeTools(client: string): CodeTools | undefined;
  /** Where code mode's runs wait for a 2026-07-28 client's retry (shared by replicas). */
  readonly suspendedRuns: SuspendedRuns;
  /** The tools each 2026-07-28 profile loaded (that era has no session). */
  readonly profiles: ProfileLoadsService;
  /** A fingerprint of what a profile loaded. */
  profileFingerprint(client: string): string;
  /** Backend tools hidden in a search-mode list by a meta-tool of the same name. */
  shadowed(client: string): Tool[];
}

/** What each 2026-07-28 profile loaded with `search+load`, and who listens for its tools/list. */
export interface ProfileLoadsService {
  /** The tools a profile loaded (created on first use). */
  of(client: string): LoadedTools;
  /** Counts a listen stream of the profile's tools; returns the function that ends it. */
  listen(client: string): () => void;
  /** Whether any stream listens for the profile's tools. */
  listening(client: string): boolean;
  /** Subscribes to a profile's loads changing; returns the function that unsubscribes. */
  onChange(listener: (client: string) => void): () => void;
  /** Announces that a profile's loads changed. */
  changed(client: string): void;
}

/** Resource subscriptions shared by every frontend. */
export interface SubscriptionsService {
  /** The origin of a URI a client may subscribe to; throws a protocol error otherwise. */
  validate(uri: string, client: string): ItemOrigin;
  attach(sink: UpdateSink, uri: string): Promise<void>;
  attachAll(sink: UpdateSink, uris: string[]): Promise<void>;
  detach(sink: UpdateSink, uri: string): Promise<void>;
  /** Releases everything a sink held (its session ended). */
  detachAll(sink: UpdateSink): void;
}

/** OAuth of remote backends (MCP authorization spec). */
export interface AuthService {
  /** Starts the user's authorization: the URL for the browser, and `done` once tokens are saved and it reconnected. */
  startAuthorization(
    backendId: string,
    options?: { signal?: AbortSignal; openBrowser?: boolean },
  ): Promise<{ authorizationUrl: string; done: Promise<BackendHealth> }>;
  /** Signs a backend out (revoking its tokens where supported). */
  signOut(backendId: string): Promise<{ revoked: boolean }>;
  /** Every OAuth-capable backend's authorization state, offline. */
  authStatus(): Promise<AuthStatusEntry[]>;
}

/** Every task of this instance, for the host (the UI's task list). */
export interface TaskListing {
  get(taskId: string, client: string): ProxyTask | undefined;
  /** Every task, or one client's. */
  list(client?: string): ProxyTask[];
  /** Subscribes to any change; returns the function that unsubscribes. */
  onChange(listener: (change: TaskChange) => void): () => void;
}

/**
 * Tasks of this instance (MCP 2025-11-25 tasks and the 2026-07-28 tasks
 * extension through the proxy), in memory only: a restart loses them.
 */
export interface TasksService {
  /** A task-augmented tools/call (2025-11-25): the task created, the call run or forwarded behind it. */
  create(params: CallToolRequestParams, ttl: unknown, options: TaskRequestOptions): Promise<CreateTaskResult>;
  /** A 2026-07-28 tools/call that may become a task: the task, or the result when it ended at once. */
  open(
    params: CallToolRequestParams,
    ttl: unknown,
    options: TaskRequestOptions,
  ): Promise<ProxyTask | { result: CallToolResult | InputRequiredResult }>;
  /** A plain tools/call; a 2026-07-28 client's call of a task-only tool runs as the backend's task. */
  callPlainly(
    params: CallToolRequestParams,
    options: TaskRequestOptions,
  ): Promise<CallToolResult | InputRequiredResult>;
  /** tasks/get for the task's owner. */
  get(taskId: string, client: string, signal?: AbortSignal): Promise<Task>;
  /** A task with its input requests and result (2026-07-28 tasks/get). */
  detail(taskId: string, client: string, signal?: AbortSignal): Promise<TaskDetail>;
  /** Answers a task's input requests (2026-07-28 tasks/update). */
  update(taskId: string, client: string, responses: Record<string, unknown>, signal?: AbortSignal): Promise<void>;
  /** tasks/result: waits for the task's end. */
  result(taskId: string, options: TaskRequestOptions): Promise<CallToolResult>;
  /** tools/list as a task-aware client sees it (each tool's taskSupport through the proxy). */
  listed(tools: Tool[]): Tool[];
  /**
   * tasks/list for one client, newest first: with replicas its tasks on
   * every replica, one page at a time after `cursor` (valid on any replica).
   */
  list(client: string, cursor?: string): Promise<TaskPage>;
  /**
   * Replicas: follows the status changes of `client`'s tasks among `taskIds`
   * that other replicas run; resolves once following, with those tasks as
   * kept (none without replicas; none for ids unknown or another client's).
   */
  followElsewhere(taskIds: string[], client: string, listener: (task: ProxyTask) => void): Promise<TaskFollow>;
  /** tasks/cancel for the task's owner. */
  cancel(taskId: string, client: string): Promise<Task>;
  /** Cancels any task (the UI); false when there is none. */
  cancelById(taskId: string): Promise<boolean>;
  /** Every task, for the host. */
  readonly registry: TaskListing;
}

/** The audit log. */
export interface AuditService {
  /** Entries, newest first (none without an audit log). */
  query(query?: AuditQuery): Promise<AuditEntry[]>;
}

/** The core's events, to listen to. */
export interface CoreEventSource {
  /** Subscribes to one event; returns the function that unsubscribes. */
  on<K extends keyof CoreEvents>(event: K, listener: (payload: CoreEvents[K]) => void): () => void;
}

/** The core as the host and the shell use it. */
/**
 * Per-caller upstream connections (`credentials: "per-caller"`): each caller
 * (callerKey of catalog/policy/callerIdentity.ts) signs in upstream as
 * themselves through serve's own HTTP port, and may list and revoke theirs.
 */
export interface ConnectionsService {
  /** serve's HTTP origin (`http://host:port`): sign-in links point there. */
  served(origin: string): void;
  /** The caller's connection to every per-caller server; one not connected carries its sign-in link. */
  list(caller: CallerIdentity): Promise<ConnectionView[]>;
  /** Forgets the caller's tokens for a server and closes their connection; resolves to whether there were any. */
  revoke(caller: CallerIdentity, server: string): Promise<{ revoked: boolean }>;
  /** Administrators: everyone's connections to every per-caller server (who, since when, expiry; never a token). */
  everyone(): Promise<CallerConnectionView[]>;
  /** Administrators: forgets one caller's tokens (their key, from `everyone`) and closes their connection. */
  revokeCaller(server: string, caller: string): Promise<{ revoked: boolean }>;
  /** Opens a sign-in link: resolves to the authorization server's URL to redirect to. */
  start(server: string, link: string): Promise<string>;
  /** The authorization server's redirect back: stores the caller's tokens; resolves to the server. */
  callback(query: URLSearchParams): Promise<{ server: string }>;
}

/**
 * The sections read at start (proxy, gateway, observability, cluster) as an
 * edit of the config file left them (platform/config/restartFields.ts).
 */
export interface SettingsService {
  /** The gateway section in force: its live fields (default profile, administrators) as last edited. */
  gateway(): GatewayConfig | undefined;
  /** The fields an edit changed that apply at the next start (`gateway.tls`, ...; paths, never values). */
  restartNeeded(): readonly string[];
}

export interface Switchboard {
  readonly events: CoreEventSource;
  /** Platform pieces (environment, logger, client identity). */
  readonly deps: CoreDeps;
  /** The current merged catalog (an immutable snapshot). */
  catalog(): Catalog;
  /** What one published server gives the merged catalog (its endpoint's own view is built from it); undefined when unpublished. */
  catalogInput(backendId: string): CatalogInput | undefined;
  readonly backends: BackendsService;
  readonly router: CallsService;
  readonly policy: PolicyService;
  /** Tool overrides (names, descriptions, annotations, arguments; prompts and resources as tools). */
  readonly overrides: OverridesService;
  readonly approvals: ApprovalsService;
  /** Quarantine, the scan's reports and reviewed changes. */
  readonly reviews: ReviewsService;
  readonly profiles: ProfilesService;
  readonly sessions: SessionsService;
  readonly exposure: ExposureService;
  readonly auth: AuthService;
  readonly connections: ConnectionsService;
  readonly audit: AuditService;
  readonly tasks: TasksService;
  readonly settings: SettingsService;
  /** The keychain secret references are resolved from (undefined: none configured). */
  readonly secrets: SecretStore | undefined;
  /** The one config store of this process (undefined: a core without a config file). */
  readonly configStore: ConfigStore | undefined;
  /** The one set of client tokens of this process (undefined: none in this mode). */
  readonly clientTokens: ClientTokens | undefined;
  /** Connects the backends; resolves when each has settled. */
  start(): Promise<void>;
  /** Closes every backend and reaps their processes. */
  dispose(): Promise<void>;
}

/** The core as a frontend (core/frontend) uses it: the surface, subscriptions and the start-up grace. */
export interface FrontendCore extends Switchboard {
  readonly subscriptions: SubscriptionsService;
  /** Gateway mode: where a verified caller's gateway token is kept for token exchange (platform/auth/subjectTokens.ts). */
  readonly subjectTokens?: { remember(caller: string, token: string, expSeconds: number | undefined): void };
  /** Lists wait for backends on their first attempt during the start-up grace. */
  readonly grace: { wait(signal?: AbortSignal): Promise<void> | undefined };
}
