/** How long one start of a backend may take (used by the connection, the launch and the core). */
import type { BackendConfig, ProxyOptions } from '../../platform/config/schema.js';

/** Starting a server (npx may download it first) and listing it get at least this long. */
const START_TIMEOUT_FLOOR_MS = 30_000;

/** How long one start (spawn or connect, handshake, first listing) may take: the backend's connect timeout. */
export function connectTimeoutMs(backend: BackendConfig, proxy: ProxyOptions): number {
  return Math.max(backend.requestTimeoutMs ?? proxy.requestTimeoutMs, START_TIMEOUT_FLOOR_MS);
}
