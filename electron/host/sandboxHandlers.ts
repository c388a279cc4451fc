/**
 * Sandboxing in Settings (issue #25): whether a sandbox can run on this
 * machine, said plainly with the reason when it cannot, and
 * `proxy.defaultSandbox` (servers without a sandbox setting of their own run
 * sandboxed). The switch is saved to the config file; the proxy section is
 * read at start, so it applies once Switchboard restarts, and the view says
 * which value is in force.
 */
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { SandboxSettingsView, SandboxSupportView } from '../../shared/model/sandboxViews.js';
import type { Switchboard } from '../core/api/index.js';
import { sandboxSupport } from '../core/backends/index.js';
import { learnBackend } from '../core/backends/process/sandbox/learnBackend.js';
import { defaultStateDir } from '../core/platform/index.js';
import { rawEntries } from './backendViews.js';

/** How long a learned run may take beyond its window (start, lists, calls). */
const LEARN_TIMEOUT_MS = 120_000;

/** Whether servers can be sandboxed here, in the UI's words. */
export async function supportView(environment: NodeJS.ProcessEnv): Promise<SandboxSupportView> {
  const support = await sandboxSupport(environment);
  return support.available ? { available: true, engine: support.engine } : { available: false, reason: support.reason };
}

/** `proxy.defaultSandbox` as the config file holds it (the value in force when the file cannot be read). */
async function savedDefault(core: Switchboard): Promise<boolean> {
  const inForce = core.backends.proxyOptions().defaultSandbox;
  if (!core.configStore) return inForce;
  try {
    return (await core.configStore.read()).config.proxy.defaultSandbox;
  } catch {
    return inForce;
  }
}

/** Handlers of `sandbox.settings`, `sandbox.setDefault`, and learn mode's `sandbox.learn` and `sandbox.acceptLearned`. */
export function sandboxHandlers(
  core: Switchboard,
  configPath: string | undefined,
): Pick<CoreHandlers, 'sandbox.settings' | 'sandbox.setDefault' | 'sandbox.learn' | 'sandbox.acceptLearned'> {
  const view = async (): Promise<SandboxSettingsView> => ({
    support: await supportView(core.deps.environment),
    defaultSandbox: await savedDefault(core),
    defaultInForce: core.backends.proxyOptions().defaultSandbox,
  });
  return {
    'sandbox.settings': view,
    'sandbox.setDefault': async ({ enabled }) => {
      if (!core.configStore) {
        throw new SwitchboardError(ErrorCode.NotSupported, 'this Switchboard runs without a config file');
      }
      await core.configStore.updateSection('proxy', (proxy) => {
        if (enabled) proxy['defaultSandbox'] = true;
        else delete proxy['defaultSandbox'];
        return proxy;
      });
      return view();
    },
    ...learnHandlers(core, configPath),
  };
}

/** Learn mode: learning runs the server apart from the running one; accepting saves and restarts it. */
function learnHandlers(
  core: Switchboard,
  configPath: string | undefined,
): Pick<CoreHandlers, 'sandbox.learn' | 'sandbox.acceptLearned'> {
  return {
    'sandbox.learn': async ({ id, calls = [], windowMs = 2000 }, { signal }) =>
      learnBackend({
        backends: core.backends.backendConfigs(),
        extraPath: core.backends.proxyOptions().extraPath,
        id,
        environment: core.deps.environment,
        secrets: core.secrets,
        stateDir: core.deps.stateDir ?? defaultStateDir(process.platform, core.deps.environment),
        calls: calls.map((call) => ({ name: call.name, arguments: call.arguments ?? {} })),
        windowMs,
        timeoutMs: windowMs + LEARN_TIMEOUT_MS,
        signal,
      }),
    'sandbox.acceptLearned': async ({ id, read, write, network }) => {
      const entry = (await rawEntries(core, configPath)).get(id);
      if (!entry) throw new SwitchboardError(ErrorCode.UnknownBackend, `no server "${id}"`, { backend: id });
      return core.backends.updateBackend(id, { ...entry, sandbox: { read, write, network } });
    },
  };
}
