/**
 * Which Switchboard a CLI command that changes what is served acts on: the
 * running instance (its config file and port, from runtime.json) unless
 * `--config` / `--port` say otherwise. A flag that disagrees with the running
 * instance is honoured, with a warning that it will not see the change.
 */
import { resolve } from 'node:path';
import { findRunningInstance } from './runtimeFile.js';

/** What the command line said, and where the running instance's runtime file is. */
export interface TargetFlags {
  config: string;
  explicitConfig: boolean;
  port: number;
  explicitPort: boolean;
  stateDir: string;
}

/** The config file and port to act on, and the one line to tell the user (if any). */
export interface Target {
  config: string;
  port: number;
  /** The config was chosen (by flag or by the running instance) rather than being the default. */
  chosenConfig: boolean;
  /** One line for the user: where the command acts, or why a flag may not reach the running instance. */
  notice?: string;
}

/** Resolves the target of a command; with no instance running, the flags (or defaults) as given. */
export async function resolveTarget(flags: TargetFlags): Promise<Target> {
  const running = await findRunningInstance(flags.stateDir);
  const plain = { config: flags.config, port: flags.port, chosenConfig: flags.explicitConfig };
  if (!running) return plain;
  const runningConfig = running.config;
  const warnings: string[] = [];
  const config = flags.explicitConfig || runningConfig === undefined ? flags.config : runningConfig;
  if (flags.explicitConfig && runningConfig !== undefined && resolve(runningConfig) !== resolve(flags.config)) {
    warnings.push(`config ${runningConfig}`);
  }
  const port = flags.explicitPort ? flags.port : running.port;
  if (flags.explicitPort && flags.port !== running.port) warnings.push(`port ${running.port}`);
  if (warnings.length > 0) {
    return {
      config,
      port,
      chosenConfig: true,
      notice: `warning: the running Switchboard (pid ${running.pid}) uses ${warnings.join(' and ')}, not what was given; it will not see this change until it is started with the same`,
    };
  }
  return {
    config,
    port,
    chosenConfig: flags.explicitConfig || runningConfig !== undefined,
    notice: `note: acting on the running Switchboard (config ${config}, port ${port})`,
  };
}
