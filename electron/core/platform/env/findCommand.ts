/**
 * Finding a runtime command (npx, uvx, dnx, docker) on a PATH before a
 * backend that needs it is saved, with where to get it when it is missing.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';

/** Where to get each runtime a registry entry may need. */
export const RUNTIME_INSTALL: Record<string, { name: string; url: string }> = {
  npx: { name: 'Node.js (npx)', url: 'https://nodejs.org/en/download' },
  node: { name: 'Node.js', url: 'https://nodejs.org/en/download' },
  uvx: { name: 'uv (uvx)', url: 'https://docs.astral.sh/uv/getting-started/installation/' },
  dnx: { name: 'the .NET 10 SDK (dnx)', url: 'https://dotnet.microsoft.com/download' },
  docker: { name: 'Docker', url: 'https://docs.docker.com/get-started/get-docker/' },
};

/** The absolute path of `command` on `environment`'s PATH, or undefined. */
export async function findCommand(command: string, environment: NodeJS.ProcessEnv): Promise<string | undefined> {
  const windows = process.platform === 'win32';
  const extensions = windows ? (environment['PATHEXT'] ?? '.EXE;.CMD;.BAT').split(';') : [''];
  const candidates = isAbsolute(command)
    ? [command]
    : (environment['PATH'] ?? '')
        .split(delimiter)
        .filter((d) => d !== '')
        .map((dir) => join(dir, command));
  for (const candidate of candidates) {
    for (const extension of extensions) {
      try {
        await access(candidate + extension, windows ? constants.F_OK : constants.X_OK);
        return candidate + extension;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** The message for a runtime that is not found: what it is, where to get it, and that Retry works after. */
export function missingRuntimeMessage(command: string, environment: NodeJS.ProcessEnv): string {
  const help = RUNTIME_INSTALL[command];
  const where = `not found on PATH (${environment['PATH'] ?? ''})`;
  return help
    ? `${command} is ${where}: install ${help.name} from ${help.url}, then retry`
    : `${command} is ${where}: install it, then retry`;
}

/**
 * The refusal for a runtime command (npx, uvx, dnx, docker, node) that is
 * not on PATH, naming where to get it (`data.installUrl`); undefined when it
 * is found, or when `command` is not a runtime we know (its own spawn error
 * says enough then).
 */
export async function missingRuntime(
  command: string,
  environment: NodeJS.ProcessEnv,
): Promise<SwitchboardError | undefined> {
  const help = RUNTIME_INSTALL[command];
  if (!help || (await findCommand(command, environment))) return undefined;
  return new SwitchboardError(ErrorCode.RuntimeMissing, missingRuntimeMessage(command, environment), {
    command,
    runtime: help.name,
    installUrl: help.url,
  });
}

/** Throws when `command` (a runtime or a plain command) is not on PATH, naming where to get a runtime. */
export async function requireRuntime(command: string | undefined, environment: NodeJS.ProcessEnv): Promise<void> {
  if (!command) return;
  const missing = await missingRuntime(command, environment);
  if (missing) throw missing;
  if (!RUNTIME_INSTALL[command] && !(await findCommand(command, environment))) {
    throw new SwitchboardError(ErrorCode.RuntimeMissing, missingRuntimeMessage(command, environment), { command });
  }
}
