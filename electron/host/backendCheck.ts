/**
 * Checking a server before it is added: a temporary connection with the same
 * code path as a real backend (transport, handshake, every list), bounded by
 * a timeout and an AbortSignal, then closed with its process tree reaped.
 * Nothing is saved or published.
 */
import { ErrorCode } from '../../shared/errors.js';
import { toErrorData, parseBackend, missingRuntime } from '../core/platform/index.js';
import type { BackendCheck } from '../../shared/model/views.js';
import { BackendConnection, LineTail } from '../core/backends/index.js';
import type { Switchboard } from '../core/api/index.js';

/** Default bound of a check: starting a server through npx may download it first. */
export const CHECK_TIMEOUT_MS = 30_000;

/** Whether a failure says the server wants OAuth (HTTP 401, the SDK's or the core's own code). */
function wantsAuthorization(error: unknown): boolean {
  const data = toErrorData(error);
  if (data.code === ErrorCode.AuthorizationRequired) return true;
  return /\b401\b|unauthori[sz]ed|invalid_token/i.test(data.message);
}

/** Connects to the server `entry` describes, lists its catalog, and closes it. */
export async function checkBackend(
  core: Switchboard,
  id: string,
  entry: Record<string, unknown>,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<BackendCheck> {
  const { backend, problems } = parseBackend(id, entry);
  if (!backend) {
    return {
      ok: false,
      error: {
        code: ErrorCode.ConfigInvalid,
        message: problems.map((problem) => `${problem.path}: ${problem.message}`).join('; '),
        data: { problems },
      },
    };
  }
  // A runtime that is not installed is said with where to get it, before anything is started.
  const missing =
    backend.transport === 'stdio' ? await missingRuntime(backend.command, core.deps.environment) : undefined;
  if (missing) return { ok: false, error: toErrorData(missing) };
  const timeout = AbortSignal.timeout(options.timeoutMs ?? CHECK_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const connection = new BackendConnection({
    config: { ...backend, enabled: true },
    proxy: core.backends.proxyOptions(),
    environment: core.deps.environment,
    secrets: core.secrets,
    clientInfo: core.deps.clientInfo,
    stderrTail: new LineTail(20),
  });
  try {
    await connection.connect(signal);
    const catalog = await connection.listCatalog(signal);
    const serverInfo = connection.serverInfo;
    return {
      ok: true,
      ...(serverInfo ? { serverInfo } : {}),
      counts: {
        tools: catalog.tools.length,
        resources: catalog.resources.length,
        resourceTemplates: catalog.resourceTemplates.length,
        prompts: catalog.prompts.length,
      },
    };
  } catch (error) {
    const remote = backend.transport !== 'stdio';
    const data = toErrorData(error);
    const message = timeout.aborted ? `${data.message} (no answer within the check's time limit)` : data.message;
    return {
      ok: false,
      ...(remote && wantsAuthorization(error) ? { needsAuthorization: true } : {}),
      error: { ...data, message },
    };
  } finally {
    await connection.close();
  }
}
