/**
 * The one store's shape: the union of its feature slices (zustand's slices
 * pattern), and each slice's state and actions. The slices' shapes live here,
 * not beside their creators, so the store type and the slices never import
 * each other (each slice module re-exports its own).
 */
import type { StateCreator } from 'zustand';
import type { CallOutcome, CoreClient, ParamsOf } from '../../../shared/contract.js';
import type { LogQueryView } from '../../../shared/contractMethods.js';
import type { TaskView } from '../../../shared/model/taskViews.js';
import type {
  AppInfo,
  ApprovalView,
  BackendView,
  CatalogAccessView,
  CatalogEntry,
  CatalogKind,
  ClientAppView,
  LogEntryView,
  PinChangeView,
  PolicyKind,
  PolicyView,
  ProfileView,
  RuleView,
  SessionView,
  TryInputView,
  TryProgressView,
} from '../../../shared/model/views.js';
import type { Exposure } from '../../../shared/model/exposure.js';
import type { ServerReviewSummary, ServerReviewView } from '../../../shared/model/reviewViews.js';
import type { ConnectionState } from '../bridge/connection.js';
import type { ResourceKey } from './refetchScheduler.js';
import type { Remote } from './remote.js';

/** Policy state and actions. */
export interface PolicySlice {
  policyProfile: string;
  policy: Remote<PolicyView>;
  fetchPolicy(): Promise<void>;
  setPolicyProfile(profile: string): void;
  setRule(backendId: string, kind: PolicyKind, original: string, rule: RuleView | null): Promise<CallOutcome<void>>;
  setBackendPolicy(change: ParamsOf<'policy.setBackend'>): Promise<CallOutcome<void>>;
  /** Sets rules for `profile` (`*`: everyone) in one write (bulk actions, and the Catalog's switch). */
  setRules(profile: string, rules: ParamsOf<'policy.setRules'>['rules']): Promise<CallOutcome<void>>;
  /** The Authorization screen's filter text (the Servers screen opens it on one server). */
  policyFilter: string;
  setPolicyFilter(filter: string): void;
}

/** Log state and actions. */
export interface LogSlice {
  log: Remote<LogEntryView[]>;
  logFilter: LogQueryView;
  fetchLog(): Promise<void>;
  /** Replaces the filters and re-fetches. */
  setLogFilter(filter: LogQueryView): void;
}

/** Tasks (MCP tasks through the proxy) and cancelling one. */
export interface TasksSlice {
  tasks: Remote<TaskView[]>;
  fetchTasks(): Promise<void>;
  /** Cancels a running task; the tasksChanged event re-fetches the list. */
  cancelTask(id: string): Promise<CallOutcome<{ cancelled: boolean }>>;
}

/** What installing into or uninstalling from a client app wrote. */
export interface ClientWriteView {
  path: string;
  changed: boolean;
  backup?: string;
  notes?: string[];
}

/** Clients state and actions. */
export interface ClientsSlice {
  apps: Remote<ClientAppView[]>;
  profiles: Remote<ProfileView[]>;
  sessions: Remote<SessionView[]>;
  fetchApps(): Promise<void>;
  fetchProfiles(): Promise<void>;
  fetchSessions(): Promise<void>;
  /** Creates a profile with a token; the token is returned once and never stored here. */
  createToken(id: string, name: string): Promise<CallOutcome<{ token: string }>>;
  rotateToken(id: string): Promise<CallOutcome<{ token: string }>>;
  revokeProfile(id: string): Promise<CallOutcome<void>>;
  /** Sets how a profile gets its tools (`null`: the policy's default). */
  setExposure(id: string, exposure: Exposure | null): Promise<CallOutcome<void>>;
  /** Installs into (or uninstalls from) a client app; the outcome says which file was written. */
  setClientInstalled(client: string, installed: boolean): Promise<CallOutcome<ClientWriteView>>;
}

/** Catalog state and actions. */
export interface CatalogSlice {
  catalog: Remote<CatalogEntry[]>;
  catalogQuery: string;
  catalogKind: CatalogKind | 'all';
  selectedCatalogKey: string | undefined;
  /** The profile the catalog is seen as (`*`: the main token). */
  catalogProfile: string;
  catalogAccess: Remote<CatalogAccessView>;
  fetchCatalog(): Promise<void>;
  fetchCatalogAccess(): Promise<void>;
  setCatalogProfile(profile: string): void;
  setCatalogQuery(query: string): void;
  setCatalogKind(kind: CatalogKind | 'all'): void;
  selectCatalogEntry(key: string | undefined): void;
}

/** A one-click action on a backend. */
export type BackendAction = 'restart' | 'refresh' | 'enable' | 'disable' | 'remove' | 'signOut';

/** Backends state and actions. */
export interface BackendsSlice {
  backends: Remote<BackendView[]>;
  fetchBackends(): Promise<void>;
  /** Runs an action; the outcome is returned for inline display, and the list re-fetched. */
  runBackendAction(id: string, action: BackendAction): Promise<CallOutcome<unknown>>;
  /** Checks then saves a new backend (refused with the reason when the check fails). */
  addBackend(id: string, entry: Record<string, unknown>, force?: boolean): Promise<CallOutcome<BackendView>>;
  updateBackend(id: string, entry: Record<string, unknown>): Promise<CallOutcome<BackendView>>;
}

/** Approvals and pin-change state and actions. */
export interface ApprovalsSlice {
  approvals: Remote<ApprovalView[]>;
  pins: Remote<PinChangeView[]>;
  fetchApprovals(): Promise<void>;
  fetchPins(): Promise<void>;
  resolveApproval(id: string, decision: 'once' | 'always' | 'deny'): Promise<CallOutcome<void>>;
  approvePin(backendId: string, tool: string): Promise<CallOutcome<void>>;
}

/** Quarantine and reviewed changes: every server's review state, and the one server under review. */
export interface ReviewsSlice {
  /** Every server's review state and scan summary (reviews.list). */
  reviews: Remote<ServerReviewSummary[]>;
  /** The server the Review screen is open on. */
  reviewServer: string | undefined;
  /** Its review (reviews.get), fetched while the Review screen shows. */
  review: Remote<ServerReviewView>;
  fetchReviews(): Promise<void>;
  fetchReview(): Promise<void>;
  /** Opens the Review screen on server `id`. */
  openReview(id: string): void;
  /**
   * Approves a quarantined server (its launch line and the changes held for it); past a
   * high-severity finding only with `confirmHigh` (else `confirmation_required`).
   */
  approveServer(
    id: string,
    options?: { confirmHigh?: boolean; holdFlagged?: boolean },
  ): Promise<CallOutcome<ServerReviewView>>;
  /** Puts an approved server back under review (quarantined, under the strict sandbox). */
  quarantineServer(id: string): Promise<CallOutcome<ServerReviewView>>;
  /** Approves one held tool change. */
  approveChange(id: string, tool: string): Promise<CallOutcome<ServerReviewView>>;
}

/** The screens of the app (`review` is reached from the Servers screen, not the sidebar). */
export type ScreenId = 'backends' | 'add' | 'catalog' | 'authorization' | 'clients' | 'log' | 'settings' | 'review';

/** App-wide state and actions. */
export interface AppSlice {
  info: Remote<AppInfo>;
  connection: ConnectionState;
  screen: ScreenId;
  /** Calls any contract method; the outcome (never a throw) is the caller's to show. */
  call: CoreClient['call'];
  fetchInfo(): Promise<void>;
  setScreen(screen: ScreenId): void;
  /** The server just added by a route that leaves for the Servers screen (its note there), until the screen changes. */
  added: string | undefined;
  /** Ends an add: the Servers screen, saying `id` was added and waits for review. */
  showAdded(id: string): void;
  setConnection(state: ConnectionState): void;
  /** Marks resources stale; they are re-fetched together shortly after. */
  invalidate(...keys: ResourceKey[]): void;
  /**
   * Says a panel shows `key` (fetched now, then kept fresh); returns the
   * function that says it no longer does. The log, sessions and client apps
   * are fetched only while shown.
   */
  show(key: ResourceKey): () => void;
  /** Resolves when every pending re-fetch is done (tests). */
  settled(): Promise<void>;
}

/** A resource link followed into the catalog: the entry it opened and the URI to read there. */
export interface LinkedResource {
  key: string;
  uri: string;
}

/** Try-it state and actions. */
export interface TrySlice {
  tryProgress: Record<string, TryProgressView>;
  tryInputs: Remote<TryInputView[]>;
  linkedResource: LinkedResource | undefined;
  fetchTryInputs(): Promise<void>;
  /** Records progress updates (from a `tryProgress` event). */
  recordProgress(updates: readonly TryProgressView[]): void;
  /** Forgets a finished call's progress. */
  clearProgress(callId: string): void;
  setLinkedResource(link: LinkedResource | undefined): void;
}

/** Everything in the store. */
export type AppStore = AppSlice &
  BackendsSlice &
  CatalogSlice &
  PolicySlice &
  ApprovalsSlice &
  ClientsSlice &
  LogSlice &
  TasksSlice &
  TrySlice &
  ReviewsSlice;

/** A slice creator that sees the whole store. */
export type SliceCreator<Slice> = StateCreator<AppStore, [], [], Slice>;
