/**
 * The PATH of stdio backends in Settings: where it came from (the login
 * shell, the fallback locations, or as given), the PATH in force, and the
 * directories the user put in front of it. A change is validated (absolute,
 * existing directories), saved as `proxy.extraPath` and applied at once to
 * every stdio backend started after it (platform/env/stdioPath.ts).
 */
import { stat } from 'node:fs/promises';
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { PathView } from '../../shared/model/registryViews.js';
import { type ConfigStore, ExtraPathSchema, type StdioPath } from '../core/platform/index.js';

/** What the env handlers need. */
export interface EnvHandlerDeps {
  stdioPath: StdioPath | undefined;
  /** The core's one config store (undefined: a core without a config file). */
  store: ConfigStore | undefined;
  /** The environment of stdio backends, when there is no StdioPath (a core built by hand). */
  environment: NodeJS.ProcessEnv;
}

/** The entries, or a clear error naming the first bad one. */
async function checkedEntries(raw: unknown): Promise<string[]> {
  const paths = Array.isArray(raw) ? raw.map((entry) => (typeof entry === 'string' ? entry.trim() : entry)) : raw;
  const parsed = ExtraPathSchema.safeParse(paths);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.length > 0 ? `paths.${issue.path.join('.')}` : 'paths';
    const value = typeof issue.path[0] === 'number' ? ` ("${String((paths as unknown[])[issue.path[0]])}")` : '';
    throw new SwitchboardError(ErrorCode.InvalidParams, `${at}${value}: ${issue.message}`, { field: at });
  }
  const entries = [...new Set(parsed.data.filter((dir) => dir !== ''))];
  for (const [index, dir] of entries.entries()) {
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new SwitchboardError(ErrorCode.InvalidParams, `paths.${index} ("${dir}"): no such directory`, {
        field: `paths.${index}`,
      });
    }
  }
  return entries;
}

/** Handlers of `env.path` and `env.setExtraPath`. */
export function envHandlers(deps: EnvHandlerDeps): Pick<CoreHandlers, 'env.path' | 'env.setExtraPath'> {
  const view = (): PathView =>
    deps.stdioPath?.state() ?? {
      source: 'given',
      path: (deps.environment['PATH'] ?? '').split(process.platform === 'win32' ? ';' : ':'),
      extra: [],
    };
  return {
    'env.path': async () => view(),
    'env.setExtraPath': async (params) => {
      const entries = await checkedEntries(params.paths);
      if (!deps.store || !deps.stdioPath) {
        throw new SwitchboardError(ErrorCode.NotSupported, 'this Switchboard runs without a config file');
      }
      await deps.store.updateSection('proxy', (proxy) => {
        if (entries.length > 0) proxy['extraPath'] = entries;
        else delete proxy['extraPath'];
        return proxy;
      });
      deps.stdioPath.setExtra(entries);
      return view();
    },
  };
}
