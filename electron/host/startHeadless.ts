/**
 * The core as `mcp-switchboard serve` and the desktop app both run it: the
 * config store, the keychain, the file-backed services (client tokens, tool
 * pins, the audit log with its redaction), the core, the HTTP endpoint with
 * its frontend token, the runtime file `connect` looks for, and the UI's
 * contract handlers, events and (headless) bridge. One set-up, two shells.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { delimiter } from 'node:path';
import type { CoreHandlers } from '../../shared/contract.js';
import { VERSION } from '../../shared/version.js';
import { removeRuntimeFile, sweepInstallLeftovers, writeRuntimeFile, type Launcher } from '../core/install/index.js';
import {
  openConfigStore,
  frontendTokenPath,
  resolveFrontendToken,
  type TokenSource,
  defaultConfigDir,
  defaultStateDir,
  takeLoginEnvironment,
  StdioPath,
  KeytarStore,
  createRedaction,
  type Redaction,
  jsonLog,
  type JsonLog,
  type LogFormat,
  NO_OBSERVABILITY,
  type Observability,
  openCluster,
  type Cluster,
  redisConfigDocument,
  openObservability,
  type GatewayConfig,
} from '../core/platform/index.js';
import { claimOwnership, reapOrphans } from '../core/backends/index.js';
import type { TokenKeyLocation } from '../core/catalog/index.js';
import {
  openCoreServices,
  sharedCatalogCache,
  shareReviewState,
  SwitchboardCore,
  type CoreServices,
} from '../core/switchboard/index.js';
import { stderrLogger, type Logger } from '../core/api/index.js';
import { HttpEndpoint, type DrainOutcome } from '../core/frontend/index.js';
import { Bridge, type BridgeOptions } from './bridge.js';
import type { Redactor } from './dispatch.js';
import { createEventHub, type EventHub } from './contractEvents.js';
import { createCoreHandlers } from './handlers.js';
import { TryCalls } from './tryCalls.js';
import { meHandlers } from './meHandlers.js';
import { defaultUiDir } from './uiFiles.js';
import { metricsSource } from './metricsSource.js';
import { coreClientDeps } from './clientHandlers.js';
import { startSkillsSync } from './skillsSyncStart.js';

/** What building the core takes. */
export interface CoreStackOptions {
  /** The config file (validated by the caller; a missing file means no servers yet). */
  config: string;
  environment?: NodeJS.ProcessEnv;
  logger?: Logger;
  /**
   * Opens OAuth sign-in pages (default: the user's browser through the `open` package). With
   * `SWITCHBOARD_NO_BROWSER=1` or `BROWSER=none` in `environment`, nothing is opened (the UI and
   * the API still return the URL).
   */
  openUrl?: (url: string) => Promise<void>;
  /** How log lines are written (`serve --log-format`); absent: the config's `observability.logFormat`. */
  logFormat?: LogFormat;
}

/** Whether `environment` asks never to open a browser (`SWITCHBOARD_NO_BROWSER=1`, `BROWSER=none`). */
export function browserDisabled(environment: NodeJS.ProcessEnv): boolean {
  const flag = (environment['SWITCHBOARD_NO_BROWSER'] ?? '').trim().toLowerCase();
  return (flag !== '' && flag !== '0' && flag !== 'false') || environment['BROWSER']?.trim() === 'none';
}

/**
 * The command `$BROWSER` names for `url`, if set: its first entry (the
 * variable is a `:`-separated list), words split on spaces, `%s` replaced by
 * the URL or the URL appended (the convention of xdg-open and Python's webbrowser).
 */
export function browserCommand(environment: NodeJS.ProcessEnv, url: string): string[] | undefined {
  const first = (environment['BROWSER'] ?? '').split(':')[0]?.trim();
  if (!first || first === 'none') return undefined;
  const words = first.split(/\s+/);
  return words.some((word) => word.includes('%s')) ? words.map((word) => word.replaceAll('%s', url)) : [...words, url];
}

/** Opens a URL in the user's browser: `$BROWSER` when set, else the system's (xdg-open, open, start). */
export async function openInBrowser(url: string): Promise<void> {
  const command = browserCommand(process.env, url);
  if (command) {
    const [file = '', ...args] = command;
    const child = spawn(file, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    return;
  }
  const { default: open } = await import('open');
  const child = await open(url);
  child.on('error', () => undefined);
  child.unref();
}

/** The core with its services, before anything listens. */
export interface CoreStack {
  core: SwitchboardCore;
  services: CoreServices;
  configPath: string;
  /** Where the client token key is kept (`serve` says so when it is a file). */
  tokenKey?: TokenKeyLocation;
  /** The PATH of stdio backends: where it came from and the user's entries (Settings). */
  stdioPath: StdioPath;
  /** Gateway mode, when the config has a `gateway` section (read at start: a change needs a restart). */
  gateway?: GatewayConfig;
  /** Tells the redaction the frontend token once it is known. */
  setFrontendToken(token: string): void;
  /** Every secret value this process knows (audit log and UI responses leave them out). */
  secretValues(): string[];
  /** The one redaction step of this process (audit log, both UI pipes, the core's log). */
  redaction: Redaction;
  /** The core's logger (JSON lines with `--log-format json`), redacted: `serve`'s own lines go here too. */
  logger: Logger;
  /** Metrics, traces and request ids (NO_OBSERVABILITY unless the config turns some on). */
  observability: Observability;
  /** Why the config file cannot be changed here (mounted read-only), or undefined when it can. */
  configReadOnly: string | undefined;
}

/** Builds the core exactly as `serve` runs it (HTTP or stdio). */
export async function buildCore(options: CoreStackOptions): Promise<CoreStack> {
  // Backends started from now on carry this process as their owner (backends/process/instanceOwner.ts).
  claimOwnership(options.config);
  const stateDir = defaultStateDir(process.platform, options.environment ?? process.env);
  const store = openConfigStore(options.config, { stateDir });
  // Temp files of a writer killed mid-write (under the lock: never one being written now).
  await store.removeStaleTemps();
  // Stdio backends get the login shell's PATH: started from a dock, ours is minimal (platform/env/loginShell.ts).
  // The shell may take seconds: only a child's start waits for it (platform/env/stdioPath.ts), not the listening.
  const login = options.environment ? undefined : takeLoginEnvironment();
  const { config: fileConfig } = await store.load();
  let config = fileConfig;
  // Replicas change the shared document instead (configStore.ts): a read-only file refuses nothing then.
  const configReadOnly = fileConfig.cluster ? undefined : await store.readOnly();
  // A copy: the login shell's variables and the user's PATH entries (Settings) are applied to it in place.
  const stdioPath = new StdioPath({ ...(options.environment ?? process.env) }, config.proxy.extraPath, login);
  const environment = stdioPath.environment;
  let frontendToken = '';
  /** Secrets observability holds (the metrics token), known once it is opened. */
  const observedSecrets: string[] = [];
  const keychain = new KeytarStore();
  // Every sink asks what to redact each time it writes: the frontend token, keychain values, the
  // header/secret values of the backends in force now (including ones added at runtime), and
  // secret-looking variables of this process's environment.
  // Redis may log (connected, or not) before the core exists: the backends' values count from then on.
  const built: { core?: SwitchboardCore } = {};
  const redaction = createRedaction({
    backends: () => built.core?.backendConfigs() ?? [],
    environment,
    environmentRevision: () => stdioPath.revision,
    extra: () => [frontendToken, ...observedSecrets, ...keychain.knownValues()],
  });
  const secretValues = redaction.values;
  const json = (options.logFormat ?? config.observability?.logFormat) === 'json' ? jsonLogTo(redaction) : undefined;
  // A JSON log writes through the redaction itself (whole lines, fields included).
  const logger = options.logger ? redaction.logger(options.logger) : (json ?? redaction.logger(stderrLogger));
  // Together: loading the OpenTelemetry SDK (when configured) is compile time, the services' files are I/O.
  // Replicas: Redis for shared state (loaded only with a `cluster` section; Redis away does not stop the start).
  const clusterOpening = config.cluster
    ? openCluster(config.cluster, {
        environment,
        warn: (message) => logger.warn(message),
        secret: (value) => observedSecrets.push(value),
      })
    : undefined;
  const [opened, coreServices, cluster] = await Promise.all([
    openObservability(config.observability, {
      environment,
      secrets: keychain,
      version: VERSION,
      jsonLog: options.logger ? undefined : json,
    }),
    openCoreServices(store, secretValues, keychain),
    clusterOpening,
  ]);
  if (opened.metricsToken !== undefined) observedSecrets.push(opened.metricsToken);
  // Replicas share the config document in Redis, seeded from the file (a change through any replica applies on all).
  if (cluster) {
    const shared = await store.share(redisConfigDocument(cluster), (error) =>
      logger.warn(`the shared config cannot be read now (${(error as Error).message}): serving ${options.config}`),
    );
    config = shared.config;
  }
  // Replicas share quarantine too: server approvals and tool pins in Redis (read by the core's start).
  if (cluster) shareReviewState(coreServices, cluster);
  const { observability } = opened;
  const services = {
    ...coreServices,
    ...(observability === NO_OBSERVABILITY ? {} : { observability }),
    // Replicas share the catalog cache too: a new replica lists every server at once from what another listed.
    ...(cluster ? { cluster, catalogCache: sharedCatalogCache(cluster, logger) } : {}),
  };
  // Reads (and on first start moves into the keychain) the key client tokens are derived from.
  const tokenKey = await services.tokens?.tokenKey().then(
    ({ location }) => location,
    (error: unknown): TokenKeyLocation => ({ where: 'file', reason: (error as Error).message }),
  );
  const core: SwitchboardCore = new SwitchboardCore(
    config,
    {
      environment,
      environmentReady: stdioPath.ready,
      logger,
      clientInfo: { name: 'mcp-switchboard', version: VERSION },
      stdioPath,
      ...(browserDisabled(environment) ? {} : { openUrl: options.openUrl ?? openInBrowser }),
    },
    services,
  );
  built.core = core;
  // What an install killed mid-unpack (SIGKILL, a crash) left in bundles/ and downloads/ (install/bundles/installLeftovers.ts).
  for (const path of await sweepInstallLeftovers(stateDir).catch(() => [])) {
    logger.info(`removed ${path}: left by an install that was killed`);
  }
  // What an earlier Switchboard of this config, killed with SIGKILL, left running (backends/process/orphanReaper.ts).
  // In the background: this start's own backends carry a live owner and are never touched.
  void reapOrphans(options.config).then(
    (reaped) => {
      for (const { ownerPid, pids } of reaped) {
        logger.info(
          `ended ${pids.length} process(es) left by Switchboard ${ownerPid} (gone) of this config: ${pids.join(', ')}`,
        );
      }
    },
    (error: unknown) =>
      logger.warn(`cannot look for processes an earlier Switchboard left: ${(error as Error).message}`),
  );
  // Registered once `core` exists: the redaction asks it for the backends' secrets.
  void login?.then(({ reason, path }) => {
    if (reason) logger.warn(`login shell not used (${reason}); PATH: ${path.join(delimiter)}`);
  });
  return {
    core,
    services,
    configPath: options.config,
    ...(tokenKey ? { tokenKey } : {}),
    stdioPath,
    ...(config.gateway ? { gateway: config.gateway } : {}),
    setFrontendToken: (token) => void (frontendToken = token),
    secretValues,
    redaction,
    logger,
    observability,
    configReadOnly,
  };
}

/** The JSON log of this process, on stderr through the redaction. */
function jsonLogTo(redaction: Redaction): JsonLog {
  return jsonLog(redaction.writer((text) => process.stderr.write(text)));
}

/** What `startHeadless` takes. */
export interface HeadlessOptions extends CoreStackOptions {
  host: string;
  port: number;
  /** How client entries launch `connect`. */
  launcher: Launcher;
  /** Where the UI runs (app.info). Default `headless`. */
  hostKind?: 'headless' | 'electron';
  /** Serve the built UI and its bridge on the endpoint's port (default true). */
  ui?: boolean;
  uiDir?: string;
  /** When the port is taken, listen on any free one instead of failing. */
  fallbackToFreePort?: boolean;
  /** Serve HTTPS from these PEM files (default: the config's `gateway.tls`). */
  tls?: { cert: string; key: string } | undefined;
}

/** A running core with its endpoint and UI pipes. */
export interface Headless extends CoreStack {
  endpoint: HttpEndpoint;
  url: string;
  port: number;
  token: string;
  tokenSource: TokenSource;
  handlers: CoreHandlers;
  /** Takes every secret value out of what `handlers` answer or throw (pass it to `dispatch`). */
  redact: Redactor;
  events: EventHub;
  /** The headless UI and its WebSocket (absent with `ui: false`). */
  bridge: Bridge | undefined;
  /** Stops the UI pipes and the endpoint, removes the runtime file, stops every backend. */
  stop(): Promise<void>;
  /**
   * Drains the endpoint before a stop (SIGTERM): `/readyz` 503, no new sessions, the requests
   * in flight answered for at most `proxy.drainMs`. Resolves how many were still running.
   */
  drain(): Promise<DrainOutcome>;
}

/** Raised when the endpoint cannot listen (the caller says so and exits). */
export class ListenError extends Error {}

/** Listens on the port asked for, or (when allowed and it is taken) on any free one. */
async function listenEndpoint(
  core: SwitchboardCore,
  options: HeadlessOptions,
  token: string,
  stack: CoreStack,
): Promise<HttpEndpoint> {
  const observability = stack.observability;
  const observed = observability === NO_OBSERVABILITY ? {} : { observability };
  const tlsPaths = options.tls ?? stack.gateway?.tls;
  const tls = tlsPaths && { cert: await readFile(tlsPaths.cert), key: await readFile(tlsPaths.key) };
  const endpointOptions = {
    token,
    gateway: stack.gateway,
    tls,
    ...observed,
    ...(options.environment ? { environment: options.environment } : {}),
  };
  const endpoint = new HttpEndpoint(core, { host: options.host, port: options.port, ...endpointOptions });
  try {
    await endpoint.listen();
    return endpoint;
  } catch (error) {
    await endpoint.close().catch(() => undefined);
    if (!options.fallbackToFreePort || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
  }
  const fallback = new HttpEndpoint(core, { host: options.host, port: 0, ...endpointOptions });
  await fallback.listen();
  return fallback;
}

/** Replicas: the UI's sessions and sign-ins under way, in Redis (loaded only with a `cluster` section). */
async function sharedUiState(cluster: Cluster | undefined): Promise<BridgeOptions['shared']> {
  if (!cluster) return undefined;
  const [{ redisUiSessions }, { redisSignInFlows }] = await Promise.all([
    import('./redisUiSessions.js'),
    import('./gatewayUi/redisSignInFlows.js'),
  ]);
  return { sessions: redisUiSessions(cluster), flows: redisSignInFlows(cluster) };
}

/**
 * Builds the core, listens, and wires the UI; backends are not started yet
 * (call `core.start()`), so the caller can print the endpoint first.
 */
export async function startHeadless(options: HeadlessOptions): Promise<Headless> {
  const environment = options.environment ?? process.env;
  const stack = await buildCore(options);
  const { core, services } = stack;
  const tokenFile = frontendTokenPath(defaultConfigDir(process.platform, environment));
  const { token, source } = await resolveFrontendToken(tokenFile, environment);
  stack.setFrontendToken(token);
  let endpoint: HttpEndpoint;
  try {
    endpoint = await listenEndpoint(core, options, token, stack);
  } catch (error) {
    await core.dispose();
    await services.cluster?.close().catch(() => undefined);
    await stack.observability.shutdown();
    throw new ListenError(`cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`);
  }
  const port = Number(new URL(endpoint.url).port);
  stack.observability.watch(metricsSource(core, () => endpoint.sessionCount));
  const shutdown = new AbortController();
  const tryCalls = new TryCalls();
  const handlers = createCoreHandlers(core, {
    tryCalls,
    host: options.hostKind ?? 'headless',
    endpointUrl: () => endpoint.url,
    configPath: stack.configPath,
    tokens: services.tokens,
    launcher: options.launcher,
    signal: shutdown.signal,
    stdioPath: stack.stdioPath,
  });
  // Both pipes' answers and events leave without the secret values this process knows.
  const redact = stack.redaction.value;
  const events = createEventHub(core, { ...(services.audit ? { audit: services.audit } : {}), redact, tryCalls });
  const bridge =
    options.ui === false
      ? undefined
      : new Bridge({
          shared: await sharedUiState(services.cluster),
          handlers,
          events,
          token,
          port: () => port,
          uiDir: options.uiDir ?? defaultUiDir(),
          approvals: core.approvals,
          redact,
          gateway: stack.gateway,
          secrets: core.secrets,
          environment,
          viewerHandlers: (viewer) => meHandlers(core, viewer),
          gatewayInForce: () => core.settings.gateway(),
        });
  if (bridge) endpoint.extend(bridge);
  // Skills installed into clients' folders follow the catalog (reviewed changes only); nothing runs without an install.
  const stopSkillsSync = startSkillsSync(
    core,
    coreClientDeps(core, { configPath: stack.configPath, endpointUrl: () => endpoint.url, launcher: options.launcher }),
    stack.logger,
  );
  // How `connect` finds this instance; removed on a clean exit (a crash leaves it, which readers detect).
  const stateDir = defaultStateDir(process.platform, environment);
  await writeRuntimeFile(stateDir, {
    port,
    pid: process.pid,
    url: endpoint.url,
    startedAt: new Date().toISOString(),
    config: options.config,
  }).catch((error: unknown) =>
    stack.redaction.logger(stderrLogger).warn(`cannot write the runtime file: ${(error as Error).message}`),
  );
  let stopped: Promise<void> | undefined;
  return {
    ...stack,
    endpoint,
    url: endpoint.url,
    port,
    token,
    tokenSource: source,
    handlers,
    redact,
    events,
    bridge,
    drain: () => endpoint.drainRequests(core.backends.proxyOptions().drainMs),
    stop: () =>
      (stopped ??= (async () => {
        shutdown.abort();
        stopSkillsSync();
        events.close();
        await endpoint.close().catch(() => undefined);
        await removeRuntimeFile(stateDir).catch(() => undefined);
        await core.dispose();
        await services.cluster?.close().catch(() => undefined);
        // Last: the spans of the requests that ended while stopping are sent too.
        await stack.observability.shutdown().catch(() => undefined);
      })()),
  };
}
