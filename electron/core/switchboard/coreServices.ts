/**
 * The core's optional services (`CoreServices`), and their file-backed
 * versions for a headless or desktop run: the config store, client token
 * digests, tool pins and server approvals (config dir) and the audit log (state dir). Kept here so
 * the CLI and the Electron shell build them alike.
 */
import { join } from 'node:path';
import { CatalogCache } from '../catalog/catalogCache.js';
import { fileWriter, type ConfigStore } from '../platform/config/configStore.js';
import { stderrLogger, type Logger } from '../platform/deps.js';
import { defaultAuditDir, defaultConfigDir, defaultStateDir } from '../platform/config/paths.js';
import { AuditLog } from '../catalog/policy/auditLog.js';
import { ClientTokens } from '../catalog/policy/clientTokens.js';
import { PinStore } from '../catalog/policy/pinStore.js';
import { ServerApprovals } from '../catalog/policy/serverApprovals.js';
import type { Scanner } from '../catalog/policy/serverReviews.js';
import type { SecretStore } from '../platform/secrets/secretStore.js';
import type { Observability } from '../platform/observability/observability.js';
import type { Cluster } from '../platform/cluster/cluster.js';
import { redisCatalogPlace } from '../platform/cluster/redisCatalogPlace.js';
import { redisReviewState } from '../catalog/policy/redisReviewState.js';

/** Optional services of the core: persistence, client tokens, tool pins, the audit log. */
export interface CoreServices {
  store?: ConfigStore | undefined;
  tokens?: ClientTokens | undefined;
  pins?: PinStore | undefined;
  /** Approved servers' launch lines (quarantine; undefined: no quarantine in this run). Loaded by the core's start. */
  approvals?: ServerApprovals | undefined;
  /** The poisoning scan (default: catalog/scan/scanCatalog.ts; tests inject one). */
  scanner?: Scanner | undefined;
  audit?: AuditLog | undefined;
  /** The OS keychain, for `{"secret": NAME}` env and header values. */
  secrets?: SecretStore | undefined;
  /** Each backend's last catalog, published at start before the backends run. */
  catalogCache?: CatalogCache | undefined;
  /** Metrics and traces of routed requests (absent: off, as in laptop mode). */
  observability?: Observability | undefined;
  /** The state replicas share in Redis (absent: one process, everything in memory, as on a laptop). */
  cluster?: Cluster | undefined;
}

/**
 * Opens the services; `secrets` is asked each time the audit log writes;
 * `keychain` resolves `{"secret": NAME}` values.
 */
export async function openCoreServices(
  store: ConfigStore,
  secrets: () => string[],
  keychain?: SecretStore,
): Promise<CoreServices> {
  const configDir = defaultConfigDir();
  const tokens = new ClientTokens(join(configDir, 'client-tokens.json'), fileWriter, keychain);
  await tokens.load();
  const audit = new AuditLog({ dir: defaultAuditDir(), redact: secrets });
  const pins = new PinStore(join(configDir, 'tool-pins.json'), { audit });
  await pins.load();
  const approvals = new ServerApprovals(join(configDir, 'server-approvals.json'));
  const catalogCache = new CatalogCache(join(defaultStateDir(), 'catalogs'), { logger: stderrLogger });
  return { store, tokens, pins, approvals, audit, secrets: keychain, catalogCache };
}

/** The catalog cache replicas share: its entries in the cluster's Redis instead of this replica's state dir. */
export function sharedCatalogCache(cluster: Cluster, logger: Logger): CatalogCache {
  return new CatalogCache(join(defaultStateDir(), 'catalogs'), { logger, place: redisCatalogPlace(cluster) });
}

/**
 * Replicas keep the server approvals and tool pins in Redis: an approval or a
 * quarantine through one replica holds on every replica, and a replica with
 * an empty state dir approves nothing of its own (catalog/policy/redisReviewState.ts).
 */
export function shareReviewState(services: CoreServices, cluster: Cluster): void {
  const shared = redisReviewState(cluster);
  services.approvals?.share(shared.approvals);
  services.pins?.share(shared.pins);
}
