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
import { machineMissingSandboxPackages, sandboxSupport } from '../core/backends/index.js';

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

/** Handlers of `sandbox.settings` and `sandbox.setDefault`. */
export function sandboxHandlers(core: Switchboard): Pick<CoreHandlers, 'sandbox.settings' | 'sandbox.setDefault'> {
  const view = async (): Promise<SandboxSettingsView> => {
    const missing = machineMissingSandboxPackages(core.deps.environment);
    return {
      support: await supportView(core.deps.environment),
      defaultSandbox: await savedDefault(core),
      defaultInForce: core.backends.proxyOptions().defaultSandbox,
      ...(missing ? { missingPackages: { packages: missing.packages, command: missing.command } } : {}),
    };
  };
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
  };
}
