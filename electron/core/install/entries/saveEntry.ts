/**
 * Saving a new server entry, whatever it came from (the MCP Registry, a
 * bundle): what adding needs, the values the user gave for its inputs, the
 * check before saving (connect and list; undone when it fails) and the save
 * itself (through the running core when there is one). Shared by
 * install/registry/addFromRegistry.ts and install/bundles/installBundle.ts.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { SecretSink } from '../clientApps/secrets.js';
import { writeServerEntry } from '../../platform/config/openConfigStore.js';
import type { SecretStore } from '../../platform/secrets/secretStore.js';
import { checkEntry } from './checkEntry.js';
import type { RunningBackends } from './runningBackends.js';

/** The values the user gave for an entry's inputs (variables, arguments, a bundle's user_config), by field key; a repeated field may hold several. */
export type InputValues = Record<string, string | string[] | undefined>;

/** What adding needs, whatever the entry came from. */
export interface AddContext {
  configPath: string;
  /** Environment of stdio backends (the login shell's PATH). */
  environment: NodeJS.ProcessEnv;
  sink: SecretSink;
  /** No keychain and the user has not chosen where secrets go yet: ask (install/registry/secretChoice.ts). */
  askSecretStorage?: boolean;
  /** Where `{"secret": ...}` values are read from during the check. */
  secrets?: SecretStore;
  clientInfo: { name: string; version: string };
  signal?: AbortSignal;
  /** The state dir: downloaded bundles are unpacked under it (`bundles/<id>`). */
  stateDir?: string;
  /** Saves a new backend (a running core's addBackend); default: written to the config file. */
  save?: (id: string, entry: Record<string, unknown>) => Promise<void>;
  /**
   * The running core's backends, when there is one: taken IDs, "added" marks
   * and updates read these instead of opening a second store on the file.
   */
  backends?: RunningBackends;
}

/** Saves a new entry: through the running core when there is one, else into the config file. */
export async function saveNewEntry(ctx: AddContext, id: string, entry: Record<string, unknown>): Promise<void> {
  if (ctx.save) return ctx.save(id, entry);
  await writeServerEntry(ctx.configPath, id, entry, ctx.stateDir ? { stateDir: ctx.stateDir } : {});
}

/**
 * Checks the backend by connecting to it; on failure runs `undo` and throws.
 * With `authorization`, a remote server that answers 401 passes (`undefined`):
 * it is saved, and signing in comes next.
 */
export async function checkOrUndo(
  ctx: AddContext,
  backend: Parameters<typeof checkEntry>[0],
  undo: () => Promise<void>,
  options: { authorization?: boolean } = {},
): Promise<number | undefined> {
  const check = await checkEntry(backend, {
    environment: ctx.environment,
    ...(ctx.secrets ? { secrets: ctx.secrets } : {}),
    clientInfo: ctx.clientInfo,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  if (check.ok) return check.tools;
  if (check.needsAuthorization && options.authorization && backend.transport !== 'stdio') return undefined;
  await undo();
  const tail = check.stderr.length > 0 ? `\n${check.stderr.slice(-5).join('\n')}` : '';
  throw new SwitchboardError(
    ErrorCode.ConnectFailed,
    `${backend.id} did not start: ${check.error.message}${tail}; nothing was saved`,
    {
      error: check.error,
    },
  );
}
