/**
 * Learning one configured server's permissions, as the CLI (`sandbox learn`)
 * and the UI (`sandbox.learn`) both do it: its launch line and env resolved
 * as the core would spawn it (secrets from the store, over the user's
 * environment), learned (learnRun.ts records it on Linux; learnByRefusals.ts
 * learns from the sandbox's refusals on macOS and Windows), and set against its current sandbox
 * (learnDiff.ts) as a {@link LearnView}; and accepting, which writes a
 * `sandbox` setting to its entry in the config document.
 */
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { LearnView, SandboxSettingView } from '../../../../shared/model/sandboxViews.js';
import type { BackendConfig } from '../../platform/config/schema.js';
import { resolveValues } from '../../platform/secrets/resolve.js';
import type { SecretStore } from '../../platform/secrets/secretStore.js';
import { acceptedSetting, grantDiff } from '../process/sandbox/learnDiff.js';
import { learnByRefusals } from './learnByRefusals.js';
import { learnPermissions, type LearnCall } from './learnRun.js';

/** What learning a configured server takes. */
export interface LearnBackendInput {
  /** The configured servers. */
  backends: readonly BackendConfig[];
  /** `proxy.extraPath`. */
  extraPath: string[];
  id: string;
  environment: NodeJS.ProcessEnv;
  secrets: SecretStore | undefined;
  stateDir: string;
  calls: LearnCall[];
  windowMs: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Learns `id`'s permissions and sets them against its current sandbox. */
export async function learnBackend(input: LearnBackendInput): Promise<LearnView> {
  const backend = input.backends.find((item) => item.id === input.id);
  if (!backend)
    throw new SwitchboardError(ErrorCode.UnknownBackend, `no server "${input.id}" in the config`, {
      backend: input.id,
    });
  if (backend.transport !== 'stdio')
    throw new SwitchboardError(
      ErrorCode.NotSupported,
      `"${input.id}" is a remote server: only a server Switchboard starts (stdio) has a sandbox to learn`,
      { backend: input.id },
    );
  const inherited: Record<string, string> = { ...getDefaultEnvironment() };
  for (const [key, value] of Object.entries(input.environment)) if (value !== undefined) inherited[key] = value;
  const own = await resolveValues(backend.env, input.environment, input.secrets, `mcpServers.${input.id}.env`);
  const learn = process.platform === 'linux' ? learnPermissions : learnByRefusals;
  const result = await learn({
    launch: {
      id: input.id,
      command: backend.command,
      args: backend.args,
      cwd: backend.cwd,
      env: { ...inherited, ...own },
    },
    stateDir: input.stateDir,
    extraPath: input.extraPath,
    calls: input.calls,
    windowMs: input.windowMs,
    timeoutMs: input.timeoutMs,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const diff = grantDiff(backend.sandbox, result.grant);
  return {
    id: input.id,
    durationMs: result.durationMs,
    listed: result.listed,
    calls: result.calls,
    grant: result.grant,
    diff,
    proposed: acceptedSetting(diff),
  };
}

/** Writes `setting` as `mcpServers.<id>.sandbox` (on) in a config document; the store validates the result. */
export function writeSandboxSetting(
  document: Record<string, unknown>,
  id: string,
  setting: Omit<SandboxSettingView, 'enabled'>,
): void {
  const servers = document['mcpServers'] as Record<string, unknown> | undefined;
  const entry = servers?.[id];
  if (!entry || typeof entry !== 'object' || Array.isArray(entry))
    throw new SwitchboardError(ErrorCode.UnknownBackend, `no server "${id}" in the config`, { backend: id });
  (entry as Record<string, unknown>)['sandbox'] = {
    read: [...setting.read],
    write: [...setting.write],
    network: Array.isArray(setting.network) ? [...setting.network] : setting.network,
  };
}
