/**
 * The PATH every stdio backend gets: the directories the user added
 * (`proxy.extraPath`, from Settings) in front of the resolved one (the login
 * shell's, platform/env/loginShell.ts). The environment object is the one the core
 * spawns children with, so a change from Settings applies to every backend
 * started after it without a restart.
 *
 * The login shell may take seconds to answer (a zsh with plugins), and
 * nothing but a child's start needs its answer: listening and serving the
 * cached catalog do not wait for it. Until it answers the environment is this
 * process's own, `ready` is pending, and whatever spawns a child or looks a
 * command up on PATH waits for `ready` first (CoreDeps.environmentReady).
 */
import { delimiter } from 'node:path';
import type { ResolvedEnvironment } from './loginShell.js';

/** Where the PATH came from, the user's entries, and the PATH in force. */
export interface StdioPathState {
  /** `resolving`: the login shell has not answered yet; `given`: the environment was given as is. */
  source: ResolvedEnvironment['source'] | 'given' | 'resolving';
  /** The PATH in force, in order (the user's entries first). */
  path: string[];
  /** The entries the user added (`proxy.extraPath`). */
  extra: string[];
  reason?: string;
}

/** The stdio backends' PATH and the environment it is applied to. */
export class StdioPath {
  private resolved: string[];
  private extra: string[] = [];
  private origin: ResolvedEnvironment | undefined;
  private resolving: boolean;
  /** Counts the changes of `environment` (what the redaction learned from it is then learned again). */
  revision = 0;
  /** Settles once `environment` holds the login shell's answer (at once without one). */
  readonly ready: Promise<void>;

  /**
   * `environment` is changed in place: its PATH, and the login shell's
   * variables once `login` settles (absent: the environment is final as given).
   */
  constructor(
    readonly environment: NodeJS.ProcessEnv,
    extra: readonly string[],
    login?: Promise<ResolvedEnvironment>,
  ) {
    this.resolved = (environment['PATH'] ?? '').split(delimiter).filter((entry) => entry !== '');
    this.resolving = login !== undefined;
    this.setExtra(extra);
    // Never rejects (resolveLoginEnvironment falls back by itself): a spawn waiting on it must not fail.
    this.ready = login
      ? login.then(
          (resolved) => this.apply(resolved),
          () => void (this.resolving = false),
        )
      : Promise.resolve();
  }

  /** Puts `extra` in front of the resolved PATH (replacing earlier extra entries). */
  setExtra(extra: readonly string[]): void {
    this.extra = [...extra];
    this.environment['PATH'] = [...new Set([...this.extra, ...this.resolved])].join(delimiter);
    this.revision++;
  }

  /** The state, for Settings. */
  state(): StdioPathState {
    return {
      source: this.resolving ? 'resolving' : (this.origin?.source ?? 'given'),
      path: (this.environment['PATH'] ?? '').split(delimiter).filter((entry) => entry !== ''),
      extra: [...this.extra],
      ...(this.origin?.reason ? { reason: this.origin.reason } : {}),
    };
  }

  /** Takes the login shell's answer: its variables, and its PATH behind the user's entries. */
  private apply(resolved: ResolvedEnvironment): void {
    Object.assign(this.environment, resolved.environment);
    this.origin = resolved;
    this.resolved = resolved.path;
    this.resolving = false;
    this.setExtra(this.extra);
  }
}
