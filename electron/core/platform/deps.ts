/**
 * Platform pieces the core takes as arguments instead of importing them, so the
 * same core runs under Electron, headless and in tests.
 */

/** A logger; the core never writes secrets to it. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** The user's PATH entries of stdio backends, changed live (platform/env/stdioPath.ts's StdioPath). */
export interface ExtraPathControl {
  state(): { extra: string[] };
  /** Puts `extra` in front of the PATH stdio backends get (replacing earlier entries). */
  setExtra(extra: readonly string[]): void;
}

/** Dependencies of the core. */
export interface CoreDeps {
  /** Environment for `${VAR}` expansion and for stdio children. */
  environment: NodeJS.ProcessEnv;
  /**
   * Settles once `environment` is final: the login shell's variables applied
   * (platform/env/stdioPath.ts). A child is spawned only after it; listening and the
   * cached catalog do not wait. Absent: `environment` is final as given.
   */
  environmentReady?: Promise<void>;
  logger: Logger;
  /** Identity the proxy presents to backends and frontends. */
  clientInfo: { name: string; version: string };
  /** Opens a URL in the user's browser (OAuth authorization); absent where there is none. */
  openUrl?: (url: string) => Promise<void>;
  /**
   * The PATH of stdio backends (its environment is `environment`): a hand
   * edit of `proxy.extraPath` is applied to it live, as Settings does.
   */
  stdioPath?: ExtraPathControl;
  /** Switchboard's state directory (sandboxed servers' private homes); absent: the platform's default. */
  stateDir?: string;
}

/** A logger that writes to stderr (stdout may carry the stdio protocol). */
export const stderrLogger: Logger = {
  info: (message) => process.stderr.write(`[switchboard] ${message}\n`),
  warn: (message) => process.stderr.write(`[switchboard] warning: ${message}\n`),
  error: (message) => process.stderr.write(`[switchboard] error: ${message}\n`),
};

/** A logger that drops everything. */
export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
