/**
 * Launching a server through srt (@anthropic-ai/sandbox-runtime) on macOS and
 * Windows, behind sandboxedLaunch.ts: srt is imported here only, the first
 * time a server is launched under it, so nothing else needs its Node.js
 * (22.12+) or pays its load time.
 *
 * srt keeps one session per process. It is opened with the session half of
 * the mapping (srtSettings.ts) and, on Windows, opened again when a server
 * brings a grant the session does not hold yet (srt grants files to its
 * sandbox account for a whole session). Each launch is wrapped with the
 * server's own half, under a random command id that its host list is
 * registered under and that srt attributes its violations to: a refused
 * connection, and on macOS every refused read or write the system's sandbox
 * log reports, reaches that server's SandboxWatch ("blocked: ...").
 */
import { randomBytes } from 'node:crypto';
import type * as SrtModule from '@anthropic-ai/sandbox-runtime';
import type { SandboxViolationEvent } from '@anthropic-ai/sandbox-runtime';
import { ErrorCode, SwitchboardError } from '../../../../../shared/errors.js';
import type { SandboxPolicy } from './sandboxPolicy.js';
import {
  srtCommandLine,
  srtCommandSettings,
  srtSessionConfig,
  withServerEnv,
  type SrtPlatform,
} from './srtSettings.js';

type Srt = typeof SrtModule;

/** A server's line under srt, and how to stop attributing to it. */
export interface SrtLaunch {
  command: string;
  args: string[];
  /** Variables laid over the server's environment (its private home and temp folder). */
  env: Record<string, string>;
  cwd: string;
  /** Forgets the launch: its host list and its violations (the server stopped or is launched again). */
  release: () => void;
}

/** How long srt may take to open its session (Windows may first narrow a profile grant) and to wrap one command. */
const OPEN_TIMEOUT_MS = 120_000;
const WRAP_TIMEOUT_MS = 30_000;

/** `work`, or a `sandbox_unavailable` error naming `what` once `ms` have passed. */
async function within<T>(work: Promise<T>, ms: number, what: string, backendId: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const reason = `srt did not ${what} within ${ms / 1000} s`;
      reject(
        new SwitchboardError(ErrorCode.SandboxUnavailable, `"${backendId}" was not started: ${reason}`, {
          backend: backendId,
          reason,
        }),
      );
    }, ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The attribution text of a server's commands: what srt reports as a violation's `command`. */
const commandText = (backendId: string): string => `switchboard:${backendId}`;

class SrtSession {
  private srt: Promise<Srt> | undefined;
  private opened: { platform: SrtPlatform; config: string } | undefined;
  private opening: Promise<void> = Promise.resolve();
  /** The policies launched, by server (Windows: the session holds their grants). */
  private readonly policies = new Map<string, SandboxPolicy>();
  /** Who hears of a violation, by attribution text. */
  private readonly listeners = new Map<string, (line: string) => void>();
  private readonly seen = new WeakSet<SandboxViolationEvent>();
  private unsubscribe: (() => void) | undefined;

  private load(): Promise<Srt> {
    this.srt ??= import('@anthropic-ai/sandbox-runtime');
    return this.srt;
  }

  /** Opens the session `platform` needs for the policies launched so far (again, when that changed). */
  private async open(srt: Srt, platform: SrtPlatform): Promise<void> {
    const config = srtSessionConfig(platform, [...this.policies.values()]);
    const key = JSON.stringify(config);
    if (this.opened?.platform === platform && this.opened.config === key) return;
    if (this.opened) await srt.SandboxManager.reset();
    this.opened = undefined;
    await srt.SandboxManager.initialize(config, undefined, platform === 'darwin');
    this.opened = { platform, config: key };
    this.unsubscribe?.();
    this.unsubscribe = srt.SandboxManager.getSandboxViolationStore().subscribe((violations) => this.heard(violations));
  }

  private heard(violations: SandboxViolationEvent[]): void {
    for (const violation of violations) {
      if (this.seen.has(violation)) continue;
      this.seen.add(violation);
      const listener = violation.command === undefined ? undefined : this.listeners.get(violation.command);
      listener?.(violation.line);
    }
  }

  async launch(
    platform: SrtPlatform,
    policy: SandboxPolicy,
    line: { command: string; args: string[]; env: Record<string, string> },
    onViolation: (line: string) => void,
  ): Promise<SrtLaunch> {
    const others = [...this.policies.entries()].filter(([id]) => id !== policy.backendId).map(([, other]) => other);
    const mapped = srtCommandSettings(platform, policy, others);
    if (!mapped.ok)
      throw new SwitchboardError(
        ErrorCode.SandboxUnavailable,
        `"${policy.backendId}" is set to run sandboxed, but ${mapped.reason}; it was not started`,
        { backend: policy.backendId, reason: mapped.reason },
      );
    const srt = await this.load();
    this.policies.set(policy.backendId, policy);
    // One opening at a time: two servers starting together wait for the same session.
    const opened = this.opening.then(() => this.open(srt, platform));
    this.opening = opened.catch(() => undefined);
    await within(opened, OPEN_TIMEOUT_MS, 'open its sandbox session', policy.backendId);
    const settings = mapped.command;
    const commandId = randomBytes(16).toString('base64url');
    const text = commandText(policy.backendId);
    const wrapped = await srt.SandboxManager.wrapWithSandboxArgv(
      srtCommandLine(platform, line.command, line.args),
      undefined,
      settings.customConfig,
      AbortSignal.timeout(WRAP_TIMEOUT_MS),
      settings.cwd,
      { commandId, commandText: text },
    );
    if (settings.hosts.length > 0)
      srt.SandboxManager.registerCommandNetworkLists(commandId, { allowedDomains: settings.hosts });
    this.listeners.set(text, onViolation);
    const argv = platform === 'win32' ? withServerEnv(wrapped.argv, { ...line.env, ...settings.env }) : wrapped.argv;
    const [command, ...args] = argv;
    if (command === undefined) throw new Error('srt returned an empty command line');
    return {
      command,
      args,
      env: settings.env,
      cwd: settings.cwd,
      release: () => {
        srt.SandboxManager.unregisterCommandNetworkLists(commandId);
        if (this.listeners.get(text) === onViolation) this.listeners.delete(text);
      },
    };
  }
}

/** The process's one srt session. */
const session = new SrtSession();

/** `line` as srt runs it on `platform` under `policy`; `onViolation` hears what srt refused it. */
export function srtLaunch(
  platform: SrtPlatform,
  policy: SandboxPolicy,
  line: { command: string; args: string[]; env: Record<string, string> },
  onViolation: (line: string) => void,
): Promise<SrtLaunch> {
  return session.launch(platform, policy, line, onViolation);
}
