/**
 * A server's launch line: what starts or reaches it (command, arguments,
 * environment variable names, working folder, URL, header names, its own
 * sandbox setting), and its hash. An approval covers exactly this: a change
 * of any of it sends the server back to quarantine. Values of environment
 * variables and headers are left out: they are secrets, and rotating one is
 * not a new server.
 */
import { createHash } from 'node:crypto';
import type { LaunchLineView } from '../../../../shared/model/reviewViews.js';
import type { BackendConfig } from '../../platform/config/schema.js';
import { canonical } from '../definitionHash.js';

/** The launch line of a configured backend. */
export function launchLineOf(backend: BackendConfig): LaunchLineView {
  if (backend.transport === 'stdio') {
    return {
      transport: 'stdio',
      command: backend.command,
      args: [...backend.args],
      envKeys: Object.keys(backend.env).sort(),
      ...(backend.cwd !== undefined ? { cwd: backend.cwd } : {}),
      sandbox: backend.sandbox ? structuredClone(backend.sandbox) : null,
    };
  }
  const launch = backend.launch;
  return {
    transport: backend.transport,
    url: backend.url,
    headerKeys: Object.keys(backend.headers).sort(),
    ...(launch
      ? {
          command: launch.command,
          args: [...launch.args],
          envKeys: Object.keys(launch.env).sort(),
          ...(launch.cwd !== undefined ? { cwd: launch.cwd } : {}),
        }
      : {}),
  };
}

/** SHA-256 (hex) of a launch line's canonical JSON. */
export function launchHash(line: LaunchLineView): string {
  return createHash('sha256').update(canonical(line)).digest('hex');
}

const hashes = new WeakMap<BackendConfig, string>();

/** The hash of a backend's launch line (configs are immutable: computed once per config). */
export function backendLaunchHash(backend: BackendConfig): string {
  let hash = hashes.get(backend);
  if (hash === undefined) {
    hash = launchHash(launchLineOf(backend));
    hashes.set(backend, hash);
  }
  return hash;
}
