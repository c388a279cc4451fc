/**
 * The core's request path, built once with the core: policy, client tokens and
 * approvals (AccessControl), the rate limits, what it withholds (ServerReviews: quarantine and held changes), the router for calls, reads and prompts, the task
 * service and the resource subscription hub. Each reads the published catalog
 * and reaches backends only through the pool of backend connections, so a
 * backend's coming and going needs no rewiring; their notifications become
 * the core's events.
 */
import type { BackendPool } from '../backends/supervisor/backendPool.js';
import type { Catalog } from '../catalog/catalog.js';
import type { ProxyOptions, SwitchboardConfig } from '../platform/config/schema.js';
import type { CoreEvents } from '../api/events.js';
import type { CoreServices } from './coreServices.js';
import type { TypedEmitter } from '../platform/typedEmitter.js';
import { ToolExposure } from '../frontend/exposure/toolExposure.js';
import { AccessControl } from '../catalog/policy/accessControl.js';
import { CorePolicyService } from '../catalog/policy/policyService.js';
import { ServerReviews } from '../catalog/policy/serverReviews.js';
import type { PolicyService } from '../api/services.js';
import type { LegacyCall } from '../frontend/relay/legacyCall.js';
import type { ParkedCalls } from '../frontend/relay/parkedCalls.js';
import { SubscriptionHub } from '../frontend/relay/subscriptionHub.js';
import { Router, type RouterSource } from '../frontend/routing/router.js';
import { RateLimits } from '../catalog/policy/limits/rateLimits.js';
import { redisBucketsFactory } from '../catalog/policy/limits/redisBuckets.js';
import { TaskService } from '../frontend/tasks/taskService.js';

/** What the request path reads from the core. */
export interface RequestPathContext {
  /** The config the core was created with (the initial policy and approval timeout). */
  initial: SwitchboardConfig;
  /** The proxy options in force. */
  proxy(): ProxyOptions;
  services: CoreServices;
  events: TypedEmitter<CoreEvents>;
  /** The published catalog. */
  catalog(): Catalog;
  /** The pool of backend connections, which the router, tasks and subscriptions receive. */
  pool: BackendPool;
  parked: ParkedCalls<LegacyCall<unknown>>;
  /** The backends' configs in force (the Authorization screen lists their settings). */
  backendConfigs(): readonly { id: string }[];
}

/** The request path's parts, kept by the core as `access`, `router`, `subscriptions`, `exposure` and `policy`. */
export interface RequestPath {
  access: AccessControl;
  /** Quarantine, scan reports and reviewed changes; what the access control withholds. */
  reviews: ServerReviews;
  /** The policy service over `access` and the tool pins. */
  policy: PolicyService;
  /** Each client's tools/list by its exposure, and search over what it may use. */
  exposure: ToolExposure;
  router: Router;
  /** The rate limits of `policy.limits`, with their refusals counted per server. */
  limits: RateLimits;
  subscriptions: SubscriptionHub;
  /** Tasks (2025-11-25): task-augmented calls, forwarded or run by us. */
  tasks: TaskService;
}

/** Builds the access control, router and subscription hub over the core's catalog and backends. */
export function buildRequestPath(context: RequestPathContext): RequestPath {
  const { initial, events, services } = context;
  const { store, tokens, pins, audit, observability } = services;
  const reviewChanged = (backendId: string): Promise<void> | undefined => {
    // Approved or quarantined again: a server running under the other containment starts again.
    const restarted = context.pool.get(backendId)?.containmentChanged();
    access.engine.invalidate();
    events.emit('catalogChanged', { tools: true, prompts: true, resources: true });
    events.emit('healthChanged', { backendId });
    return restarted;
  };
  // Replicas: an approval, a quarantine or an approved change made through another replica applies here at once.
  services.approvals?.onChange((backendId) => void reviewChanged(backendId));
  pins?.onChange((backendId) => void reviewChanged(backendId));
  const reviews = new ServerReviews({
    approvals: services.approvals,
    pins: () => pins,
    backend: (id) => context.pool.get(id)?.config,
    backendIds: () => context.backendConfigs().map((backend) => backend.id),
    proxy: context.proxy,
    scanner: services.scanner,
    changed: (backendId) => reviewChanged(backendId),
    scanned: (backendId) => events.emit('healthChanged', { backendId }),
  });
  const access = new AccessControl(
    initial.policy,
    {
      policyChanged: () => events.emit('catalogChanged', { tools: true, prompts: true, resources: true }),
      clientRevoked: (client) => events.emit('clientRevoked', { client }),
      approvalsChanged: () => events.emit('approvalsChanged', {}),
    },
    {
      store,
      tokens,
      approvalTimeoutMs: initial.proxy.approvalTimeoutMs,
      withheld: (backend, kind, original) => reviews.withheld(backend, kind, original),
      whyWithheld: (backend, kind, original) => reviews.whyWithheld(backend, kind, original),
    },
  );
  const recordRouted = (entry: Parameters<NonNullable<RouterSource['audit']>>[0]): void => {
    observability?.routed(entry);
    if (!audit) return;
    // Arguments and results are kept only for backends whose policy asks to capture them.
    const capture = access.policy.backends[entry.backend]?.capture === true;
    audit.record(capture ? entry : { ...entry, arguments: undefined, result: undefined });
  };
  // Replicas share their buckets in Redis (a limit holds across them); one process keeps them in memory.
  const limits = new RateLimits(
    () => access.policy.limits,
    services.cluster ? redisBucketsFactory(services.cluster) : undefined,
  );
  const router = new Router({
    catalog: context.catalog,
    pool: context.pool,
    parked: context.parked,
    inputTimeoutMs: () => context.proxy().inputTimeoutMs,
    access,
    approvals: access.approvals,
    approvalTimeoutMs: () => context.proxy().approvalTimeoutMs,
    allowAlways: (client, origin) => access.setRule(origin.backendId, 'tools', origin.original, 'allow', client),
    audit: recordRouted,
    ...(observability ? { backendCall: observability.backendCall.bind(observability) } : {}),
    limits,
    rateLimited: (call, refusal) =>
      events.emit('rateLimited', {
        client: call.client,
        ...(call.principal ? { principal: call.principal.subject } : {}),
        backendId: call.origin.backendId,
        kind: call.kind,
        item: call.origin.original,
        rule: refusal.scope.rule,
      }),
  });
  const tasks = new TaskService({
    router,
    catalog: context.catalog,
    pool: context.pool,
    parked: context.parked,
    inputTimeoutMs: () => context.proxy().inputTimeoutMs,
    limits: () => {
      const proxy = context.proxy();
      return {
        ttlDefaultMs: proxy.taskTtlDefaultMs,
        ttlMaxMs: proxy.taskTtlMaxMs,
        maxPerClient: proxy.maxTasksPerClient,
      };
    },
    audit: recordRouted,
  });
  events.on('healthChanged', ({ backendId }) => tasks.backendChanged(backendId));
  events.on('backendTaskStatus', ({ backendId, params }) => tasks.backendPushed(backendId, params));
  tasks.registry.onChange(() => events.emit('tasksChanged', {}));
  // Replicas: tasks kept in Redis for every replica to see (loaded only with a `cluster` section).
  const { cluster } = services;
  if (cluster) {
    tasks.share(
      import('../frontend/tasks/redisTaskStore.js').then(({ RedisTaskStore }) => new RedisTaskStore(cluster)),
    );
    // A 2026-07-28 client's answer to an approval question may come back through another replica.
    void import('../catalog/policy/redisAskTokens.js').then(({ RedisAskTokens }) =>
      access.approvals.shareAskTokens(new RedisAskTokens(cluster)),
    );
    // Pending approvals listed and answered through every replica's UI; an approver on any replica counts.
    void import('../frontend/tasks/replicaApprovals.js').then(({ ReplicaApprovals }) =>
      access.approvals.shareApprovals(
        new ReplicaApprovals(cluster, {
          resolve: (id, decision) => access.approvals.resolve(id, decision),
          changed: () => events.emit('approvalsChanged', {}),
        }),
      ),
    );
    // A 2026-07-28 client's retry of a call parked for its answers may come back through another replica.
    const relayHost = { parked: context.parked, inputTimeoutMs: () => context.proxy().inputTimeoutMs };
    void import('../frontend/tasks/replicaParks.js').then(({ ReplicaParks }) =>
      context.parked.shareAcross(new ReplicaParks(cluster, relayHost, () => context.proxy().requestTimeoutMs)),
    );
  }
  const subscriptions = new SubscriptionHub({
    catalog: context.catalog,
    pool: context.pool,
    mayUse: (client, kind, key) => access.authorize(client, context.catalog(), kind, key) !== 'deny',
    audit: (entry) => audit?.record(entry),
  });
  const exposure = new ToolExposure({
    catalog: context.catalog,
    view: (client) => access.view(client, context.catalog()),
    policy: () => access.policy,
    // A profile's most-called tools changed (pinMostUsed): sessions whose own list changed are told.
    pinsChanged: () => events.emit('catalogChanged', { tools: true, prompts: false, resources: false }),
  });
  // Replicas: a code mode run waiting for a 2026-07-28 client's answers may be retried through another replica.
  if (cluster) {
    void import('../frontend/exposure/code/redisSuspendedRuns.js').then(({ RedisSuspendedRuns }) =>
      exposure.shareSuspendedRuns(new RedisSuspendedRuns(cluster)),
    );
  }
  const policy = new CorePolicyService({
    access,
    catalog: context.catalog,
    backendConfigs: context.backendConfigs,
    pins: () => pins,
    withheld: (backend, kind, original) => reviews.withheld(backend, kind, original),
    catalogChanged: (change) => events.emit('catalogChanged', change),
  });
  return { access, reviews, router, limits, subscriptions, exposure, policy, tasks };
}
