/**
 * Turning a stdio server's launch line into its sandboxed one: the seam
 * between the transport (which spawns whatever it is given) and the sandbox.
 * Off: the line as it is. On, where a sandbox runs: `bwrap ... -- command
 * args` under the server's policy on Linux, srt's wrapped line on macOS and
 * Windows (srtEngine.ts, loaded only then). On, where none can run: a
 * `sandbox_unavailable` error and no process: a server the user asked to
 * sandbox never runs unsandboxed.
 *
 * A quarantined server (`quarantine` given: never approved, or its launch line
 * changed since) runs under STRICT_SANDBOX instead of its own setting; where
 * no engine can run it is not started, and the error names the command that
 * starts it unsandboxed (the user's recorded choice, `startUnsandboxed`). A
 * container runtime is contained by itself and keeps its own setting. A
 * quarantined npx, pnpm dlx or bunx server gets no network either: its packages
 * are fetched into its private home first and it runs offline (packagePrefetch.ts).
 */
import { homedir } from 'node:os';
import { ErrorCode, SwitchboardError } from '../../../../../shared/errors.js';
import type { BackendSandbox } from '../../../../../shared/model/health.js';
import type { SandboxSetting } from '../../../platform/config/schema.js';
import { findCommand, searchPath } from '../commandLookup.js';
import { bubblewrapArgs } from './bubblewrapArgs.js';
import { settleMountPoints } from './mountPoints.js';
import { sandboxSupport } from './sandboxSupport.js';
import { srtLaunch } from './srtEngine.js';
import { isContainerRuntime, resolveSandboxPolicy, STRICT_SANDBOX, type SandboxPolicy } from './sandboxPolicy.js';
import type { QuarantineContainment } from '../../../../../shared/model/health.js';
import { basename } from 'node:path';
import { offlineRunner, prefetchForOffline } from './packagePrefetch.js';

/** What every sandboxed launch needs from the proxy. */
export interface SandboxContext {
  /** Switchboard's state directory (private homes under `sandboxes/<id>/`). */
  stateDir: string;
  /** `proxy.extraPath`. */
  extraPath: string[];
}

/** A launch line to spawn, and what it runs under. */
export interface SandboxedLaunch {
  command: string;
  args: string[];
  view: Omit<BackendSandbox, 'blocked'>;
  policy?: SandboxPolicy;
  /** Variables laid over the server's environment (srt: its private home and temp folder). */
  env?: Record<string, string>;
  /** Where it starts, when the engine decides (srt: its private home rather than the hidden real one). */
  cwd?: string;
  /** srt: forgets the launch (its host list, its violations) once the server stops or starts again. */
  release?: () => void;
}

/** A quarantined server's launch: whether the user chose to start it unsandboxed while it is reviewed. */
export interface QuarantineLaunch {
  startUnsandboxed: boolean;
}

/** The command that starts a held quarantined server unsandboxed while it is reviewed. */
export function startUnsandboxedCommand(id: string): string {
  return `mcp-switchboard review ${/^[A-Za-z0-9_.-]+$/.test(id) ? id : `'${id.replace(/'/g, `'\\''`)}'`} --start-unsandboxed`;
}

/** What a setting says before anything was launched under it (health before the first start). */
export function sandboxView(setting: SandboxSetting): BackendSandbox {
  const { read, write, network } = setting;
  return { state: setting.enabled ? 'on' : 'off', read, write, network, blocked: [] };
}

/** A package runner's setting: its network also lets it reach its package registry (packageRegistryHosts, below). */
function withPackageRegistries(setting: SandboxSetting, command: string, env: Record<string, string>): SandboxSetting {
  const hosts = packageRegistryHosts(command, env);
  if (hosts.length === 0 || setting.network === 'all') return setting;
  const listed = setting.network === 'none' ? [] : setting.network;
  return { ...setting, network: [...listed, ...hosts.filter((host) => !listed.includes(host))] };
}

/** The line a stdio server is started with under `setting` (a quarantined one: see the top of this file). */
export async function sandboxedLaunch(
  launch: { id: string; command: string; args: string[]; cwd: string | undefined; env: Record<string, string> },
  own: SandboxSetting,
  context: SandboxContext,
  onViolation: (line: string) => void = () => undefined,
  quarantine?: QuarantineLaunch,
): Promise<SandboxedLaunch> {
  const container = quarantine !== undefined && isContainerRuntime(launch.command);
  const strict = quarantine !== undefined && !container;
  const held: QuarantineContainment | undefined = quarantine && {
    mode: container ? 'container' : 'strict',
  };
  const chosen = strict ? STRICT_SANDBOX : own;
  // Quarantined npx, pnpm dlx or bunx: its packages are fetched first and it runs offline, with no network (packagePrefetch.ts).
  const offlinePackages = strict ? offlineRunner(launch.command, launch.args) : undefined;
  if (!chosen.enabled) {
    const granted = { read: own.read, write: own.write, network: own.network };
    return {
      command: launch.command,
      args: launch.args,
      view: { state: 'off', ...granted, ...(held ? { quarantine: held } : {}) },
    };
  }
  const setting = offlinePackages ? chosen : withPackageRegistries(chosen, launch.command, launch.env);
  const granted = { read: setting.read, write: setting.write, network: setting.network };
  const support = await sandboxSupport(launch.env);
  /** No sandbox can run it: not started (a quarantined one: unless the user chose to start it unsandboxed). */
  const unavailable = (reason: string, turnOff: string): SandboxedLaunch => {
    if (!strict)
      throw new SwitchboardError(
        ErrorCode.SandboxUnavailable,
        `"${launch.id}" is set to run sandboxed, but ${reason}; it was not started${turnOff}`,
        { backend: launch.id, reason },
      );
    if (quarantine.startUnsandboxed) {
      const off = { read: own.read, write: own.write, network: own.network };
      return {
        command: launch.command,
        args: launch.args,
        view: { state: 'off', ...off, quarantine: { mode: 'unsandboxed' } },
      };
    }
    const command = startUnsandboxedCommand(launch.id);
    throw new SwitchboardError(
      ErrorCode.SandboxUnavailable,
      `"${launch.id}" is quarantined: it runs only under the strict sandbox until you approve it, but ${reason}; it was not started (to start it unsandboxed while you review it: ${command})`,
      { backend: launch.id, reason, command },
    );
  };
  if (!support.available) return unavailable(support.reason, ' (turn its sandbox off to run it with your rights)');
  if (
    support.engine === 'bubblewrap' &&
    Array.isArray(setting.network) &&
    !findCommand('socat', searchPath(launch.env))
  )
    return unavailable(
      'a list of hosts (sandbox.network) needs socat, which is not installed (Debian/Ubuntu: apt install socat)',
      '',
    );
  const home = launch.env['HOME'] || homedir();
  const resolvedCommand = findCommand(launch.command, searchPath(launch.env), launch.cwd ? { cwd: launch.cwd } : {});
  const policy = resolveSandboxPolicy({
    backendId: launch.id,
    resolvedCommand,
    args: launch.args,
    cwd: launch.cwd,
    setting,
    home,
    stateDir: context.stateDir,
    extraPath: context.extraPath,
  });
  let offline: Record<string, string> | undefined;
  let args = launch.args;
  if (offlinePackages) {
    const fetched = await prefetchForOffline(offlinePackages, launch.args, {
      privateHome: policy.privateHome,
      // bubblewrap mounts the private home at the home's path; srt points HOME at the private one.
      insideHome: support.engine === 'srt' ? policy.privateHome : policy.home,
      env: launch.env,
      resolvedCommand,
    });
    offline = fetched.env;
    args = fetched.args ?? args;
  }
  if (support.engine === 'srt') {
    const line = offline ? { ...launch, args, env: { ...launch.env, ...offline } } : launch;
    const srt = await srtLaunch(support.platform, policy, line, onViolation);
    // srt brings its own proxies: ours (hostFilterProxy.ts) is bubblewrap's.
    const srtPolicy: SandboxPolicy = { ...policy };
    delete srtPolicy.proxySocket;
    return {
      command: srt.command,
      args: srt.args,
      view: { state: 'on', engine: 'srt', ...granted, ...(held ? { quarantine: held } : {}) },
      policy: srtPolicy,
      env: { ...offline, ...srt.env },
      cwd: srt.cwd,
      release: srt.release,
    };
  }
  // A grant revoked since the last launch: the empty stand-in of its mount must not answer for it.
  settleMountPoints(policy);
  return {
    command: support.bwrap,
    args: bubblewrapArgs(policy, launch.command, args),
    view: { state: 'on', engine: support.engine, ...granted, ...(held ? { quarantine: held } : {}) },
    policy,
    ...(offline ? { env: offline } : {}),
  };
}

/**
 * Where a package runner fetches the server it runs: `npx -y pkg@1.2.3`
 * asks the npm registry for the package at every start, `uvx pkg` asks the
 * Python index. A sandboxed server started that way may reach exactly those
 * hosts (through its host list's proxy), however its own network is set, and
 * keeps its downloads in its private home: it declares its package, so it may
 * fetch it, and nothing it fetches is shared with other servers.
 *
 * The registry hosts a command's package runner needs (empty for any other command).
 */
export function packageRegistryHosts(command: string, env: Record<string, string>): string[] {
  const name = basename(command).replace(/\.(cmd|exe)$/i, '');
  if (['npx', 'npm', 'pnpm', 'pnpx', 'yarn', 'bunx', 'bun'].includes(name))
    return [hostOf(env['npm_config_registry'] ?? env['NPM_CONFIG_REGISTRY']) ?? 'registry.npmjs.org'];
  if (['uvx', 'uv', 'pipx', 'pip'].includes(name)) {
    const index = hostOf(env['UV_INDEX_URL'] ?? env['UV_DEFAULT_INDEX'] ?? env['PIP_INDEX_URL']);
    return index ? [index] : ['pypi.org', 'files.pythonhosted.org'];
  }
  return [];
}

/** `host[:port]` of a URL, or undefined. */
function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}
