/**
 * `GET /metrics` on the endpoint's port: the main token or the metrics token
 * from the config opens it (compared in constant time, as the endpoint's own
 * bearer check does); with `unauthenticated: true`, and only then, anyone who
 * reaches the port may read it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metrics } from './metrics.js';
import type { MetricsRoute } from './observability.js';

/** Who may read the metrics. */
export interface MetricsAccess {
  /** The scrapers' own token (resolved from the config's reference), if any. */
  token: string | undefined;
  unauthenticated: boolean;
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** The `/metrics` route over `metrics`. */
export function metricsRoute(metrics: Metrics, access: MetricsAccess): MetricsRoute {
  const tokenDigest = access.token === undefined ? undefined : digest(access.token);
  const accepted = (presented: string | undefined, isMainToken: (token: string) => boolean): boolean => {
    if (access.unauthenticated) return true;
    if (presented === undefined) return false;
    if (tokenDigest && timingSafeEqual(digest(presented), tokenDigest)) return true;
    return isMainToken(presented);
  };
  return {
    async serve(req: IncomingMessage, res: ServerResponse, isMainToken) {
      const presented = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!accepted(presented, isMainToken)) {
        res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer realm="mcp-switchboard"' });
        res.end('Unauthorized: /metrics needs the bearer token or the metrics token\n');
        return;
      }
      const { body, contentType } = await metrics.text();
      res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
      res.end(body);
    },
  };
}
