/**
 * The check before an entry is saved: connect to it the way a real backend
 * does (transport, handshake, every list), bounded by a timeout and an
 * AbortSignal, then close it with its process tree reaped. Nothing is saved.
 * A stdio server is checked under its sandbox, as it will run.
 */
import { type ErrorData } from '../../../../shared/errors.js';
import { toErrorData } from '../../platform/toErrorData.js';
import { authorizationProblem } from '../../platform/auth/authErrors.js';
import { BackendConnection } from '../../backends/connection/backendConnection.js';
import { LineTail } from '../../backends/transport/transports.js';
import { ProxyOptionsSchema, sandboxOf, type BackendConfig, type ProxyOptions } from '../../platform/config/schema.js';
import { defaultStateDir } from '../../platform/config/paths.js';
import { SandboxWatch } from '../../backends/process/sandbox/sandboxWatch.js';
import type { SecretStore } from '../../platform/secrets/secretStore.js';

/** How long a check may take: npx or uvx may download the package first. */
export const ENTRY_CHECK_TIMEOUT_MS = 60_000;

/** What the check found. */
export type EntryCheck =
  | { ok: true; tools: number }
  /** `needsAuthorization`: the server answered 401 (MCP authorization spec): only the user's sign-in can fix it. */
  | { ok: false; error: ErrorData; stderr: string[]; needsAuthorization?: true };

/** Connects to `backend`, lists its catalog, and closes it. */
export async function checkEntry(
  backend: BackendConfig,
  options: {
    environment: NodeJS.ProcessEnv;
    secrets?: SecretStore;
    clientInfo: { name: string; version: string };
    timeoutMs?: number;
    signal?: AbortSignal;
  },
): Promise<EntryCheck> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? ENTRY_CHECK_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const stderrTail = new LineTail(20);
  const proxy = ProxyOptionsSchema.parse({});
  const connection = new BackendConnection({
    config: { ...backend, enabled: true },
    proxy,
    environment: options.environment,
    secrets: options.secrets,
    clientInfo: options.clientInfo,
    stderrTail,
    sandbox: checkSandbox(backend, proxy, options.environment),
  });
  try {
    await connection.connect(signal);
    const catalog = await connection.listCatalog(signal);
    return { ok: true, tools: catalog.tools.length };
  } catch (error) {
    const data = toErrorData(error);
    const message = timeout.aborted
      ? `${data.message} (no answer within ${ENTRY_CHECK_TIMEOUT_MS / 1000} s)`
      : data.message;
    return {
      ok: false,
      error: { ...data, message },
      stderr: stderrTail.snapshot(),
      ...(authorizationProblem(error) ? { needsAuthorization: true as const } : {}),
    };
  } finally {
    await connection.close();
  }
}

/**
 * The sandbox the check runs a stdio server under: the one it will be served
 * under, so a server from someone else's code never runs with the user's
 * rights, not even for its check (and a server the sandbox stops fails here,
 * before it is saved).
 */
function checkSandbox(backend: BackendConfig, proxy: ProxyOptions, environment: NodeJS.ProcessEnv) {
  if (backend.transport !== 'stdio') return undefined;
  return {
    setting: sandboxOf(backend, proxy),
    context: { stateDir: defaultStateDir(process.platform, environment), extraPath: proxy.extraPath },
    watch: new SandboxWatch(),
  };
}
