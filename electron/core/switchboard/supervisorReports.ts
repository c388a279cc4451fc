/**
 * What the core's backend supervisors report to (SupervisorHost): admission of
 * their catalogs (scanned, then checked against tool pins), health, logs, resource
 * updates and start slots. A private object of the core, never part of its
 * public surface (api/services.ts).
 */
import { join } from 'node:path';
import type { LoggingMessageNotification } from '@modelcontextprotocol/client';
import { BackendEras } from '../backends/connection/backendEras.js';
import { defaultStateDir } from '../platform/config/paths.js';
import type { SwitchboardError } from '../../../shared/errors.js';
import type { BackendAuth } from '../platform/auth/backendAuth.js';
import type { CallerCredentials } from '../platform/auth/callerCredentials.js';
import type { TokenExchange } from '../platform/auth/tokenExchange.js';
import type { BackendCatalog } from '../backends/connection/backendConnection.js';
import type { StartLimiter } from '../backends/process/startLimiter.js';
import type { SupervisorHost } from '../backends/supervisor/supervisorHost.js';
import type { CatalogPublisher } from '../catalog/catalogPublisher.js';
import { skillPin } from '../catalog/skills.js';
import type { BackendConfig, ProxyOptions } from '../platform/config/schema.js';
import type { CoreEvents } from '../api/events.js';
import type { CoreServices } from './coreServices.js';
import type { CoreDeps } from '../platform/deps.js';
import type { TypedEmitter } from '../platform/typedEmitter.js';
import type { AccessControl } from '../catalog/policy/accessControl.js';
import type { ServerReviews } from '../catalog/policy/serverReviews.js';
import type { SubscriptionHub } from '../frontend/relay/subscriptionHub.js';

/** The core's parts the supervisors' reports reach. */
export interface SupervisorHostParts {
  deps: CoreDeps;
  services: CoreServices;
  events: TypedEmitter<CoreEvents>;
  publisher: CatalogPublisher;
  access: AccessControl;
  /** Quarantine and the scan: every admitted catalog is scanned first. */
  reviews: ServerReviews;
  subscriptions: SubscriptionHub;
  startLimiter: StartLimiter;
  proxyOptions(): ProxyOptions;
  /** A configured backend's config. */
  backend(backendId: string): BackendConfig | undefined;
  authFor(backendId: string): BackendAuth | undefined;
  /** Each caller's upstream tokens for per-caller backends. */
  callerCredentials: CallerCredentials;
  /** Exchanged tokens for token-exchange backends. */
  tokenExchange: TokenExchange;
}

/**
 * Scans a backend's catalog, then reviews its tools against their pins
 * (unless the backend's policy turns pinning off): a new tool with a
 * high-severity finding is held, not pinned.
 */
async function reviewPins(parts: SupervisorHostParts, backendId: string, snapshot: BackendCatalog): Promise<void> {
  const flagged = parts.reviews.scan(backendId, parts.backend(backendId)?.prefix ?? backendId, snapshot);
  const { pins } = parts.services;
  if (pins && parts.access.policy.backends[backendId]?.pinning !== false) {
    // A tool the user held when approving its server stays held, like a new one with a high finding.
    const hold = (tool: string): boolean => flagged(tool) || parts.reviews.toolHeld(backendId, tool);
    // Skills are pinned beside the tools, by name (catalog/skills.ts).
    const skills = (snapshot.skills ?? []).map(skillPin);
    await pins.review(backendId, skills.length > 0 ? [...snapshot.tools, ...skills] : snapshot.tools, { hold });
  }
}

/** The host the core's supervisors report to. */
export function createSupervisorHost(parts: SupervisorHostParts): SupervisorHost {
  const { deps, events, publisher, subscriptions } = parts;
  const stateDir = deps.stateDir ?? defaultStateDir(process.platform, deps.environment);
  return {
    deps,
    eras: new BackendEras(join(stateDir, 'backend-eras.json')),
    get secrets() {
      return parts.services.secrets;
    },
    proxyOptions: () => parts.proxyOptions(),
    /**
     * Publishes a backend's snapshot; throws (and publishes nothing) on a
     * collision or limit. Tools are first checked against their pins, so a tool
     * whose definition changed is withheld from the moment it is published.
     */
    async admit(backendId, snapshot) {
      publisher.check(backendId, snapshot);
      await reviewPins(parts, backendId, snapshot);
      // Built again: other backends may have come or gone while the pins were saved.
      const staged = publisher.check(backendId, snapshot);
      parts.access.engine.invalidate();
      publisher.commit(staged);
    },
    unpublish: (backendId) => publisher.unpublish(backendId),
    changed: (backendId) => events.emit('healthChanged', { backendId }),
    log: (backendId: string, params: LoggingMessageNotification['params']) =>
      events.emit('backendLog', { backendId, params }),
    resourceUpdated: (backendId, uri, caller) => subscriptions.updated(backendId, uri, caller),
    taskStatus: (backendId, params) => events.emit('backendTaskStatus', { backendId, params }),
    online: (backendId) => subscriptions.resubscribe(backendId),
    startSlot: (signal, pidOf) => parts.startLimiter.acquire(signal, pidOf),
    catalogListed(backendId, snapshot, startMs) {
      const backend = parts.backend(backendId);
      if (backend) void parts.services.catalogCache?.save(backend, snapshot, startMs);
    },
    inUse: (backendId, caller) => subscriptions.holds(backendId, caller),
    callerClosed: (backendId, caller, renew) => subscriptions.callerClosed(backendId, caller, renew),
    quarantine: (backendId) => parts.reviews.containment(backendId),
    authFor: (backendId) => parts.authFor(backendId),
    callerCredentials: parts.callerCredentials,
    tokenExchange: parts.tokenExchange,
  };
}

/**
 * Publishes several snapshots in one build (the cached catalogs at start),
 * each reviewed against its pins first; returns the refused backends.
 */
export async function admitAll(
  parts: SupervisorHostParts,
  entries: { id: string; snapshot: BackendCatalog }[],
): Promise<Map<string, SwitchboardError>> {
  for (const { id, snapshot } of entries) await reviewPins(parts, id, snapshot);
  parts.access.engine.invalidate();
  return parts.publisher.admitAll(entries.map((entry) => entry.id));
}
