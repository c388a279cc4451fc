/**
 * Sandboxing in Settings (issue #25): whether a sandbox can run on this
 * machine, said plainly with the reason when it cannot, and
 * `proxy.defaultSandbox` (servers without a sandbox setting of their own run
 * sandboxed). The switch is saved to the config file; the proxy section is
 * read at start, so it applies once Switchboard restarts, and the view says
 * which value is in force. And one server's sandbox (issue #37): its grants,
 * each added from a refusal ("blocked by the sandbox: read of ...") and
 * revocable, and what its launch points at outside it, for the card's Allow
 * and Revoke buttons and `mcp-switchboard sandbox`: each change is saved to
 * the server's entry and restarts it (`backends.updateBackend`).
 */
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import { homedir } from 'node:os';
import {
  entrySandbox,
  grantsOf,
  sandboxValue,
  withGrant,
  withoutGrant,
  type SandboxGrant,
} from '../../shared/model/sandboxGrants.js';
import type { SandboxServerView, SandboxSettingsView, SandboxSupportView } from '../../shared/model/sandboxViews.js';
import type { ServerReviewSummary } from '../../shared/model/reviewViews.js';
import type { Switchboard } from '../core/api/index.js';
import { learnBackend, machineMissingSandboxPackages, outsidePaths, sandboxSupport } from '../core/backends/index.js';
import { defaultStateDir } from '../core/platform/index.js';
import { rawEntries, rawEntry } from './backendViews.js';

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

type Entry = Record<string, unknown>;

/** A string-valued field of an entry (`env`), else nothing. */
function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** One server's sandbox, from its entry as saved and its health. */
function serverView(core: Switchboard, id: string, entry: Entry): SandboxServerView {
  const own = entrySandbox(entry);
  const env = record(entry['env']);
  const home = typeof env['HOME'] === 'string' ? env['HOME'] : (core.deps.environment['HOME'] ?? homedir());
  const args = Array.isArray(entry['args'])
    ? entry['args'].filter((arg): arg is string => typeof arg === 'string')
    : [];
  const sandbox = core.backends.health().find((backend) => backend.id === id)?.sandbox;
  return {
    id,
    ...(own ? { own } : {}),
    ...(sandbox ? { sandbox } : {}),
    grants: grantsOf(own),
    warnings:
      typeof entry['command'] === 'string' ? outsidePaths({ args, env }, own ?? { read: [], write: [] }, home) : [],
  };
}

/** A grant the entry cannot hold: a remote server has no sandbox. */
function stdioOnly(id: string, entry: Entry): void {
  if (typeof entry['command'] !== 'string')
    throw new SwitchboardError(ErrorCode.NotSupported, `"${id}" is not a local (stdio) server: it has no sandbox`, {
      backend: id,
    });
}

/** Handlers of the sandbox methods: settings, one server's grants, and learn mode's. */
export function sandboxHandlers(
  core: Switchboard,
  configPath?: string,
): Pick<
  CoreHandlers,
  | 'sandbox.settings'
  | 'sandbox.setDefault'
  | 'sandbox.server'
  | 'sandbox.grant'
  | 'sandbox.revoke'
  | 'sandbox.setEnabled'
  | 'sandbox.learn'
  | 'sandbox.acceptLearned'
> {
  /** Saves the edited entry (the server restarts with it) and answers its view. */
  const change = async (id: string, edit: (entry: Entry) => Entry): Promise<SandboxServerView> => {
    const entry = await rawEntry(core, configPath, id);
    stdioOnly(id, entry);
    const next = edit(entry);
    await core.backends.updateBackend(id, next);
    return serverView(core, id, next);
  };
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
    'sandbox.server': async ({ id }) => serverView(core, id, await rawEntry(core, configPath, id)),
    'sandbox.grant': ({ id, grant }) => {
      const inForce = core.backends.health().find((backend) => backend.id === id)?.sandbox?.state !== 'off';
      return change(id, (entry) => withGrant(entry, grant as SandboxGrant, inForce));
    },
    'sandbox.revoke': ({ id, grant }) => change(id, (entry) => withoutGrant(entry, grant as SandboxGrant)),
    'sandbox.setEnabled': ({ id, enabled }) =>
      change(id, (entry) => {
        const own = entrySandbox(entry) ?? { enabled, read: [], write: [], network: 'none' as const };
        return { ...entry, sandbox: sandboxValue({ ...own, enabled }) };
      }),
    ...learnHandlers(core, configPath),
  };
}

/**
 * Learning runs a server with the user's files visible: a quarantined one
 * (never approved, changed, or put back under review) is reviewed and
 * approved first, as the quarantine promises it runs under the strict
 * sandbox until then.
 */
function refuseQuarantined(reviews: readonly ServerReviewSummary[], id: string): void {
  if (!reviews.find((review) => review.server === id)?.quarantined) return;
  throw new SwitchboardError(
    ErrorCode.PolicyDenied,
    `"${id}" is quarantined: learning runs it with your files visible, so review and approve it first ` +
      `(mcp-switchboard review ${id}, then approve ${id})`,
    { backend: id },
  );
}

/** Learn mode: learning runs the server apart from the running one; accepting saves and restarts it. */
function learnHandlers(
  core: Switchboard,
  configPath: string | undefined,
): Pick<CoreHandlers, 'sandbox.learn' | 'sandbox.acceptLearned'> {
  return {
    'sandbox.learn': async ({ id, calls = [], windowMs = 2000 }, { signal }) => {
      refuseQuarantined(core.reviews.list(), id);
      return learnBackend({
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
      });
    },
    'sandbox.acceptLearned': async ({ id, read, write, network }) => {
      const entry = (await rawEntries(core, configPath)).get(id);
      if (!entry) throw new SwitchboardError(ErrorCode.UnknownBackend, `no server "${id}"`, { backend: id });
      return core.backends.updateBackend(id, { ...entry, sandbox: { read, write, network } });
    },
  };
}
