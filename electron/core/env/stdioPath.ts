/**
 * The PATH every stdio backend gets: the directories the user added
 * (`proxy.extraPath`, from Settings) in front of the resolved one (the login
 * shell's, env/loginShell.ts). The environment object is the one the core
 * spawns children with, so a change from Settings applies to every backend
 * started after it without a restart.
 */
import { delimiter } from 'node:path';
import type { ResolvedEnvironment } from './loginShell.js';

/** Where the PATH came from, the user's entries, and the PATH in force. */
export interface StdioPathState {
  source: ResolvedEnvironment['source'] | 'given';
  /** The PATH in force, in order (the user's entries first). */
  path: string[];
  /** The entries the user added (`proxy.extraPath`). */
  extra: string[];
  reason?: string;
}

/** The stdio backends' PATH and the environment it is applied to. */
export class StdioPath {
  private readonly resolved: string[];
  private extra: string[] = [];

  /**
   * `environment` is changed in place (its PATH); `resolved` is where its
   * PATH came from (undefined: the caller gave the environment as is).
   */
  constructor(
    readonly environment: NodeJS.ProcessEnv,
    private readonly origin: ResolvedEnvironment | undefined,
    extra: readonly string[],
  ) {
    this.resolved = origin?.path ?? (environment['PATH'] ?? '').split(delimiter).filter((entry) => entry !== '');
    this.setExtra(extra);
  }

  /** Puts `extra` in front of the resolved PATH (replacing earlier extra entries). */
  setExtra(extra: readonly string[]): void {
    this.extra = [...extra];
    this.environment['PATH'] = [...new Set([...this.extra, ...this.resolved])].join(delimiter);
  }

  /** The state, for Settings. */
  state(): StdioPathState {
    return {
      source: this.origin?.source ?? 'given',
      path: (this.environment['PATH'] ?? '').split(delimiter).filter((entry) => entry !== ''),
      extra: [...this.extra],
      ...(this.origin?.reason ? { reason: this.origin.reason } : {}),
    };
  }
}
