/**
 * `proxy/health`: an aggregate status for frontends that negotiate our
 * extension (`capabilities.extensions["io.github.mcp-switchboard"]`, the
 * 2025-11-25+ extension mechanism). It names no backend and carries no error
 * detail: any connected client may call it, and what it runs is the user's
 * business. A client that did not declare the extension gets method-not-found.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Readiness } from '../../../../shared/model/health.js';

/** Our extension's identifier. */
export const EXTENSION_ID = 'io.github.mcp-switchboard';
/** The custom method. */
export const HEALTH_METHOD = 'proxy/health';

/** The capability entry a frontend server advertises. */
export const EXTENSION_CAPABILITY = { [EXTENSION_ID]: { methods: [HEALTH_METHOD] } };

const StatusCounts = z.object({
  connecting: z.number(),
  up: z.number(),
  degraded: z.number(),
  down: z.number(),
  disabled: z.number(),
  'needs-authorization': z.number(),
  idle: z.number(),
});

/** Its params: none defined, any accepted. Built once: a 2026-07-28 request builds a server (and this registration) each. */
const HealthParamsSchema = z.object({}).loose();

/** The result of `proxy/health`. */
export const HealthResultSchema = z.object({
  status: z.enum(['ok', 'degraded', 'down', 'starting']),
  ready: z.boolean(),
  backends: StatusCounts,
  /** Live 2025-era HTTP sessions, as `/readyz` counts them. */
  sessions: z.number(),
  /** Replicas only: whether this one reaches the shared Redis, and its name. */
  sharedState: z.object({ status: z.enum(['up', 'down']), replicaId: z.string() }).optional(),
});

/** Overall status from per-backend counts, with the live 2025-era HTTP session count. */
export function aggregateStatus(readiness: Readiness, sessions = 0): z.infer<typeof HealthResultSchema> {
  const { counts, ready } = readiness;
  const enabled =
    counts.connecting + counts.up + counts.degraded + counts.down + counts['needs-authorization'] + counts.idle;
  let status: z.infer<typeof HealthResultSchema>['status'] = 'ok';
  if (!ready && counts.connecting > 0) status = 'starting';
  else if (enabled > 0 && counts.up + counts.degraded + counts.idle === 0) status = 'down';
  else if (counts.degraded + counts.down + counts['needs-authorization'] > 0) status = 'degraded';
  else if (readiness.sharedState?.status === 'down') status = 'degraded';
  const shared = readiness.sharedState ? { sharedState: readiness.sharedState } : {};
  return { status, ready, backends: counts, sessions, ...shared };
}

/** Registers `proxy/health` on a frontend server instance; `sessions` counts live 2025-era HTTP sessions. */
export function registerHealthMethod(
  server: Server,
  readiness: () => Readiness,
  sessions: () => number = () => 0,
): void {
  server.setRequestHandler(
    HEALTH_METHOD,
    { params: HealthParamsSchema, result: HealthResultSchema },
    (_params, ctx) => {
      // 2026-07-28: capabilities travel in each request's envelope; 2025: in initialize.
      const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
      const capabilities =
        (envelope?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined) ??
        server.getClientCapabilities();
      if (!capabilities?.extensions?.[EXTENSION_ID]) {
        throw new ProtocolError(
          ProtocolErrorCode.MethodNotFound,
          `${HEALTH_METHOD} is available to clients that declare the ${EXTENSION_ID} extension`,
        );
      }
      return aggregateStatus(readiness(), sessions());
    },
  );
}
