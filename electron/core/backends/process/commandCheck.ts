/**
 * `check-config`'s warnings about stdio commands that would not start: a
 * command not found on the PATH the child would get. A warning, not a
 * problem: the desktop app and a shell can see different PATHs (field notes),
 * so the config itself may still be right.
 */
import { expandMap } from '../../platform/config/expand.js';
import type { SwitchboardConfig } from '../../platform/config/schema.js';
import { plainValues } from '../../platform/secrets/resolve.js';
import { commandNotFound, findCommand, searchPath } from './commandLookup.js';

/** One line per enabled stdio backend whose command is not found, naming the field. */
export function commandWarnings(config: SwitchboardConfig, environment: NodeJS.ProcessEnv): string[] {
  const warnings: string[] = [];
  for (const backend of config.backends) {
    if (backend.transport !== 'stdio' || !backend.enabled) continue;
    let env: Record<string, string> = plainValues(backend.env);
    try {
      env = expandMap(env, environment, backend.id);
    } catch {
      // an unset variable is reported as a problem of its own
    }
    const path = searchPath(environment, env);
    const cwd = backend.cwd;
    if (findCommand(backend.command, path, { ...(cwd ? { cwd } : {}), environment })) continue;
    warnings.push(`mcpServers.${backend.id}.command: ${commandNotFound(backend.command, path)}`);
  }
  return warnings;
}
