/**
 * The core's public surface: a few narrow services, each an interface that
 * the host (electron/host), the frontends (core/frontend) and the shell
 * (electron/main.ts) depend on instead of the core's parts (VS Code's service
 * interfaces). SwitchboardCore implements them; its supervisor callbacks and
 * its parts (access control, router, hub) stay behind this surface.
 */
import type { BackendHealth, Readiness } from '../../../shared/model/health.js';
import type { AuthStatusEntry } from '../platform/auth/authRegistry.js';
import type { Catalog } from '../catalog/catalog.js';
import type { ConfigStore } from '../platform/config/configStore.js';
import type { BackendConfig, ProxyOptions } from '../platform/config/schema.js';
import type { CoreEvents } from './events.js';
import type { CoreDeps } from '../platform/deps.js';
import type { TypedEmitter } from '../platform/typedEmitter.js';
import type { ToolExposure } from '../frontend/exposure/toolExposure.js';
import type { SessionRegistry } from '../frontend/sessions/sessionRegistry.js';
import type { AccessControl } from '../catalog/policy/accessControl.js';
import type { ApprovalBroker } from '../catalog/policy/approvals.js';
import type { AuditEntry, AuditQuery } from '../catalog/policy/auditLog.js';
import type { ClientTokens } from '../catalog/policy/clientTokens.js';
import type { ItemKind, Policy, ToolRule } from '../platform/config/policyConfig.js';
import type { ClientView } from '../catalog/policy/policyEngine.js';
import type { PinChange } from '../catalog/policy/pinStore.js';
import type { PolicyChanges } from '../catalog/policy/policyService.js';
import type { SubscriptionHub } from '../frontend/relay/subscriptionHub.js';
import type { Router } from '../frontend/routing/router.js';
import type { SecretStore } from '../platform/secrets/secretStore.js';
import type { TaskService } from '../frontend/tasks/taskService.js';

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
export type CallsService = Pick<Router, 'callTool' | 'getPrompt' | 'readResource' | 'complete'>;

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
  /** Every item's rule for a profile with its layers, and the servers' settings (the Authorization screen). */
  authorizationView: PolicyChanges['authorizationView'];
  /** Sets (`null`: clears) one rule, for every client (`*` or absent) or for one profile. */
  setRule: PolicyChanges['setRule'];
  /** Sets several rules in one write. */
  setRules: PolicyChanges['setRules'];
  /** A server's settings, or whether one profile sees it. */
  setBackend: PolicyChanges['setBackend'];
  /** A profile's exposure, or (`*`) the policy's default. */
  setExposure: PolicyChanges['setExposure'];
  /** Tool definitions that changed and wait for the user's approval (old vs new). */
  pinChanges(): PinChange[];
  /** Approves a changed tool definition: the tool is shown again, its new definition pinned. */
  approvePin(backendId: string, tool: string): Promise<void>;
}

/** Pending `ask` approvals and the approver (the UI) that answers them. */
export type ApprovalsService = Pick<ApprovalBroker, 'attach' | 'pending' | 'resolve'>;

/** Client profiles and their tokens. */
export type ClientsService = Pick<AccessControl, 'createClient' | 'rotateToken' | 'revokeClient' | 'authenticate'>;

/** Frontend sessions connected over HTTP or stdio (no tokens). */
export type SessionsService = Pick<
  SessionRegistry,
  'list' | 'onChange' | 'open' | 'identify' | 'touch' | 'seenModern' | 'close' | 'closeModern'
>;

/** Each client's tools/list by its exposure (all or search), and tool search. */
export type ExposureService = Pick<
  ToolExposure,
  'mode' | 'list' | 'fingerprint' | 'reachable' | 'search' | 'load' | 'profiles' | 'profileFingerprint' | 'shadowed'
>;

/** Resource subscriptions shared by every frontend. */
export type SubscriptionsService = Pick<SubscriptionHub, 'validate' | 'attach' | 'detach' | 'attachAll' | 'detachAll'>;

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

/**
 * Tasks of this instance (MCP 2025-11-25 tasks through the proxy), in memory
 * only: a restart loses them. `registry` lists every task for the host.
 */
export type TasksService = Pick<
  TaskService,
  'create' | 'open' | 'get' | 'detail' | 'update' | 'result' | 'list' | 'listed' | 'cancel' | 'cancelById' | 'registry'
>;

/** The audit log. */
export interface AuditService {
  /** Entries, newest first (none without an audit log). */
  query(query?: AuditQuery): Promise<AuditEntry[]>;
}

/** The core's events, to listen to. */
export type CoreEventSource = Pick<TypedEmitter<CoreEvents>, 'on'>;

/** The core as the host and the shell use it. */
export interface Switchboard {
  readonly events: CoreEventSource;
  /** Platform pieces (environment, logger, client identity). */
  readonly deps: CoreDeps;
  /** The current merged catalog (an immutable snapshot). */
  catalog(): Catalog;
  readonly backends: BackendsService;
  readonly router: CallsService;
  readonly policy: PolicyService;
  readonly approvals: ApprovalsService;
  readonly clients: ClientsService;
  readonly sessions: SessionsService;
  readonly exposure: ExposureService;
  readonly auth: AuthService;
  readonly audit: AuditService;
  readonly tasks: TasksService;
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
  /** Lists wait for backends on their first attempt during the start-up grace. */
  readonly grace: { wait(signal?: AbortSignal): Promise<void> | undefined };
}
