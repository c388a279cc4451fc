/**
 * The packages Linux's sandbox needs, named together. bubblewrap runs the
 * sandbox and socat carries a sandboxed server's allowed hosts (a package
 * runner's registry among them) through its network namespace; a stock
 * desktop has neither, and each used to be reported alone, when it first
 * failed (a registry add said "needs socat" only once bubblewrap was there).
 * `doctor` and the UI's first-run screen name both, once, with one install
 * command. Pure: the lookup of a command on PATH is injected.
 */

import { findCommand, searchPath } from '../commandLookup.js';

/** What the Linux sandbox needs installed: the package, and the command it provides. */
const LINUX_SANDBOX_PACKAGES = [
  { name: 'bubblewrap', command: 'bwrap' },
  { name: 'socat', command: 'socat' },
] as const;

/** Packages to install, and the one command that installs them. */
export interface MissingSandboxPackages {
  packages: string[];
  /** Debian/Ubuntu's command (what the other distributions call them is the same). */
  command: string;
  /** One sentence for the CLI and the UI. */
  message: string;
}

/**
 * The sandbox packages missing on this machine (undefined when none is, or off
 * Linux, where srt needs neither). `has` says whether a command is on PATH.
 */
export function missingSandboxPackages(
  has: (command: string) => boolean,
  platform: NodeJS.Platform = process.platform,
): MissingSandboxPackages | undefined {
  if (platform !== 'linux') return undefined;
  const packages = LINUX_SANDBOX_PACKAGES.filter((entry) => !has(entry.command)).map((entry) => entry.name);
  if (packages.length === 0) return undefined;
  const command = `sudo apt install ${LINUX_SANDBOX_PACKAGES.map((entry) => entry.name).join(' ')}`;
  const missing = packages.length === 1 ? `${packages[0]} is not installed` : 'neither is installed';
  return {
    packages,
    command,
    message: `the sandbox needs bubblewrap and socat (${missing}): ${command} (Fedora: sudo dnf install bubblewrap socat)`,
  };
}

/** The same, for this machine's PATH. */
export function machineMissingSandboxPackages(environment: NodeJS.ProcessEnv): MissingSandboxPackages | undefined {
  const path = searchPath(environment);
  return missingSandboxPackages((command) => findCommand(command, path) !== undefined);
}
