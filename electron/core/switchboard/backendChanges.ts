/**
 * The core's runtime changes to its set of backends: add, update and remove,
 * each applied to the running supervisors and saved to the config file (when
 * there is one), and hand edits of that file, applied as the same changes
 * without writing them back. The core delegates its public methods here.
 */
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';
import type { BackendHealth } from '../../../shared/model/health.js';
import type { AuthRegistry } from '../platform/auth/authRegistry.js';
import { BackendSupervisor } from '../backends/supervisor/backendSupervisor.js';
import type { SupervisorHost } from '../backends/supervisor/supervisorHost.js';
import type { BackendPool } from '../backends/supervisor/backendPool.js';
import { diffBackends } from '../platform/config/configDiff.js';
import type { StoredConfig } from '../platform/config/configStore.js';
import { isPerCaller, parseBackend, type BackendConfig, type SwitchboardConfig } from '../platform/config/schema.js';
import type { CoreServices } from './coreServices.js';
import type { AccessControl } from '../catalog/policy/accessControl.js';
import type { ServerReviews } from '../catalog/policy/serverReviews.js';
import { deleteUnreferenced } from '../platform/secrets/resolve.js';

/** What runtime changes need from the core. */
export interface BackendChangesHost {
  /** What the core's supervisors report to (new supervisors report to it). */
  readonly supervisorHost: SupervisorHost;
  readonly supervisors: BackendPool;
  readonly auths: AuthRegistry;
  readonly access: AccessControl;
  /** A removed server's approval and scan are forgotten: added again, it is new again. */
  readonly reviews: ServerReviews;
  readonly services: CoreServices;
  /** The config in force. */
  config(): SwitchboardConfig;
  /** Replaces the backend list in force (always a new array: caches key on it). */
  setBackends(backends: BackendConfig[]): void;
  /** Backends' tool overrides changed: the catalog is built again with them (no restart). */
  overridesChanged(): void;
  /** A backend's health with its catalog counts. */
  health(id: string): BackendHealth;
  /** The core was disposed: hand edits arriving late are ignored. */
  isDisposed(): boolean;
  /** Tells listeners a change of the config file was not applied. */
  configError(message: string): void;
  /** Tells listeners the file was applied again after a refusal. */
  configApplied(): void;
  /** The sections read at start as the edit left them: live fields applied, the others named for a restart. */
  settingsEdited(stored: SwitchboardConfig): void;
}

/**
 * Callers' tokens of a per-caller backend whose URL changed, or that is no
 * longer per-caller, were for another resource (RFC 8707): they go.
 */
async function forgetMovedCallers(
  host: BackendChangesHost,
  previous: BackendConfig,
  next: BackendConfig,
): Promise<void> {
  // Exchanged tokens (in memory) were for the old resource and client: any edit drops them.
  host.supervisorHost.tokenExchange?.forgetBackend(previous.id);
  if (!isPerCaller(previous)) return;
  if (isPerCaller(next) && next.url === previous.url) return;
  await host.supervisorHost.callerCredentials?.forgetBackend(previous.id).catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    host.supervisorHost.deps.logger.warn(`could not forget the callers' tokens of "${previous.id}": ${reason}`);
  });
}

/** Validates one `mcpServers` entry; throws `config_invalid` with every problem. */
function parseEntry(id: string, entry: unknown): BackendConfig {
  const { backend, problems } = parseBackend(id, entry);
  if (!backend) {
    throw new SwitchboardError(
      ErrorCode.ConfigInvalid,
      problems.map((problem) => `${problem.path}: ${problem.message}`).join('; '),
      { problems },
    );
  }
  return backend;
}

/** Adds, updates and removes backends at runtime; applies hand edits of the config file. */
export class BackendChanges {
  /** The newest hand edit not yet applied, and the run applying edits. */
  private waitingEdit: StoredConfig | undefined;
  private applying: Promise<void> | undefined;
  /** The last change of the file was refused (the next one that applies clears it). */
  private refused = false;

  constructor(private readonly host: BackendChangesHost) {}

  /**
   * Adds a backend: validates the entry, connects, lists and validates its
   * catalog, and only then publishes it and saves it to the config file. A
   * backend that cannot be connected, listed, admitted or saved is not added,
   * except with `persist: false` (the file already holds the entry: a hand edit,
   * or servers imported from a client app): then it is kept, down and retrying,
   * as at startup, so what runs matches the file.
   */
  async add(id: string, entry: unknown, options: { persist?: boolean } = {}): Promise<BackendHealth> {
    const { host } = this;
    const backend = parseEntry(id, entry);
    if (host.supervisors.has(id)) {
      throw new SwitchboardError(ErrorCode.DuplicateBackend, `a backend with ID "${id}" already exists`, {
        backend: id,
      });
    }
    const { maxBackends } = host.config().proxy;
    if (host.supervisors.size >= maxBackends) {
      throw new SwitchboardError(ErrorCode.BackendLimit, `cannot add "${id}": maxBackends (${maxBackends}) reached`, {
        maxBackends,
      });
    }
    const supervisor = new BackendSupervisor(backend, host.supervisorHost);
    host.supervisors.set(id, supervisor);
    const error = await supervisor.start();
    try {
      // A server that needs OAuth is added: authorizing it comes next. So is a quarantined one that
      // its containment stopped (held where no sandbox runs, or refused something by the strict
      // sandbox): it starts under its own setting once approved.
      const needsUser =
        (error instanceof SwitchboardError && error.code === ErrorCode.AuthorizationRequired) ||
        heldByQuarantine(supervisor);
      if (error !== undefined && !needsUser && options.persist !== false) throw error;
      if (options.persist !== false) await host.services.store?.updateServers((servers) => (servers[id] = entry));
    } catch (failure) {
      host.supervisors.delete(id);
      await supervisor.stop(new SwitchboardError(ErrorCode.BackendRemoved, `backend "${id}" was not added`));
      host.supervisorHost.changed(id);
      throw failure;
    }
    host.setBackends([...host.config().backends, backend]);
    return host.health(id);
  }

  /**
   * Removes a backend: unpublishes its items, fails its in-flight requests with
   * a clear error, closes it (reaping its process tree) and deletes it from the
   * config file, with the keychain secrets only it referred to (not when
   * `persist` is false: a hand edit may just have renamed it).
   */
  async remove(id: string, options: { persist?: boolean } = {}): Promise<void> {
    const { host } = this;
    const supervisor = host.supervisors.require(id);
    const removed = host.config().backends.find((backend) => backend.id === id);
    if (options.persist !== false) await host.services.store?.updateServers((servers) => delete servers[id]);
    host.supervisors.delete(id);
    host.setBackends(host.config().backends.filter((backend) => backend.id !== id));
    await supervisor.stop(
      new SwitchboardError(ErrorCode.BackendRemoved, `backend "${id}" was removed while the request was in flight`, {
        backend: id,
      }),
    );
    host.supervisorHost.changed(id);
    await host.services.catalogCache?.remove(id);
    await host.reviews.forget(id);
    if (removed && options.persist !== false) {
      await deleteUnreferenced(host.services.secrets, removed, host.config().backends, host.supervisorHost.deps.logger);
      await host.auths.removed(id);
      await host.supervisorHost.callerCredentials?.forgetBackend(id);
      host.supervisorHost.tokenExchange?.forgetBackend(id);
    }
  }

  /**
   * Replaces a backend's config (an edit): the new entry is validated, saved,
   * and the backend restarted with it. Keychain secrets the old entry referred
   * to and no entry refers to any more are deleted.
   */
  async update(id: string, entry: unknown, options: { persist?: boolean } = {}): Promise<BackendHealth> {
    const { host } = this;
    const previous = host.supervisors.require(id);
    const backend = parseEntry(id, entry);
    if (options.persist !== false) await host.services.store?.updateServers((servers) => (servers[id] = entry));
    // An approved server edited through the UI or the CLI (a sandbox grant, say) stays approved: the
    // user made the change, seeing it. A hand edit of its launch line puts it back in quarantine.
    const { approvals } = host.services;
    if (options.persist !== false && approvals?.isApproved(previous.config)) await approvals.approve(backend);
    // In force as soon as it is saved: the re-read that follows our write must find nothing to apply.
    host.setBackends(host.config().backends.map((other) => (other.id === id ? backend : other)));
    await previous.stop(
      new SwitchboardError(ErrorCode.BackendUnavailable, `backend "${id}" is restarting with a new config`, {
        backend: id,
      }),
    );
    await host.auths.replaced(previous.config, backend);
    await forgetMovedCallers(host, previous.config, backend);
    const next = new BackendSupervisor(backend, host.supervisorHost);
    host.supervisors.set(id, next);
    // Secrets the edit dropped go too, unless another backend still refers to them (not on hand edits).
    if (options.persist !== false) {
      await deleteUnreferenced(
        host.services.secrets,
        previous.config,
        host.config().backends,
        host.supervisorHost.deps.logger,
      );
    }
    await next.start();
    return host.health(id);
  }

  /** Applies a hand edit of the config file: added, removed and changed entries. */
  applyHandEdit(stored: StoredConfig): Promise<void> {
    // One edit at a time, against the backends the last one left: two quick
    // saves must not both try to add the same server. Only the newest waiting
    // edit is applied (the file is the truth; older states do not matter).
    this.waitingEdit = stored;
    this.applying ??= (async () => {
      for (let next = this.waitingEdit; next; next = this.waitingEdit) {
        this.waitingEdit = undefined;
        await this.applyEdit(next);
      }
    })().finally(() => (this.applying = undefined));
    return this.applying;
  }

  private async applyEdit(stored: StoredConfig): Promise<void> {
    const { host } = this;
    if (host.isDisposed()) return;
    if (this.refused) {
      this.refused = false;
      host.configApplied();
    }
    if (JSON.stringify(stored.config.policy) !== JSON.stringify(host.access.policy)) {
      host.access.replace(stored.config.policy);
    }
    // extraPath is applied live (platform/env/stdioPath.ts), as Settings applies it: not a reason to restart.
    // Compared with the PATH in force, since Settings changes it without a new config in force.
    const stdioPath = host.supervisorHost.deps.stdioPath;
    const extraPath = stored.config.proxy.extraPath;
    if (stdioPath && JSON.stringify(stdioPath.state().extra) !== JSON.stringify(extraPath)) {
      stdioPath.setExtra(extraPath);
      host.supervisorHost.deps.logger.info(`PATH of stdio servers: added ${extraPath.join(', ') || 'nothing'}`);
    }
    host.settingsEdited(stored.config);
    const diff = diffBackends(host.config().backends, stored);
    if (diff.overridden.length > 0) {
      const next = new Map(diff.overridden.map((backend) => [backend.id, backend]));
      host.setBackends(host.config().backends.map((backend) => next.get(backend.id) ?? backend));
      host.overridesChanged();
    }
    const tasks: Promise<unknown>[] = [
      ...diff.removed.map((id) => this.remove(id, { persist: false })),
      ...diff.added.map(({ id, entry }) => this.add(id, entry, { persist: false })),
      ...diff.changed.map(({ id, entry }) => this.update(id, entry, { persist: false })),
    ];
    const results = await Promise.allSettled(tasks);
    for (const result of results) {
      if (result.status === 'rejected') this.reportConfigError(result.reason);
    }
  }

  /** Logs a change of the config file that was not applied, and tells listeners. */
  reportConfigError(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.refused = true;
    this.host.supervisorHost.deps.logger.error(`config change not applied: ${message}`);
    this.host.configError(message);
  }
}

/** Whether a quarantined server's start was stopped by its containment (not by a fault of its own we can tell). */
function heldByQuarantine(supervisor: BackendSupervisor): boolean {
  const sandbox = supervisor.sandboxWatch.snapshot();
  return sandbox?.quarantine !== undefined && (sandbox.state === 'unavailable' || sandbox.blocked.length > 0);
}
