/**
 * A config file nobody here may change: one mounted read-only (a Kubernetes
 * ConfigMap shared by several `serve` replicas, a `docker run -v ...:ro`).
 * `serve` must start from it without writing anything beside it (no lock
 * directory, no temp-file sweep), and a change asked for through the UI or
 * the CLI must be refused at once, saying why and where to change it instead,
 * rather than waiting for a lock that can never be taken.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';

/** Errors of the file system that mean "this place cannot be written", whoever asks. */
const READ_ONLY_CODES = new Set(['EROFS', 'EACCES', 'EPERM']);

/** Whether `error` says the file system refused a write for good (not a busy lock). */
export function isReadOnlyError(error: unknown): boolean {
  return READ_ONLY_CODES.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/**
 * Why the config file at `path` cannot be changed, or undefined when it can:
 * its directory (where the lock and temp files go) or the file itself is not
 * writable. A missing directory counts as writable (the first write makes it).
 */
export async function readOnlyReason(path: string): Promise<string | undefined> {
  const checks = [
    { target: dirname(path), what: 'its directory' },
    { target: path, what: 'the file' },
  ];
  for (const { target, what } of checks) {
    try {
      await access(target, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue;
      if (isReadOnlyError(error)) return `${what} is not writable (${code})`;
    }
  }
  return undefined;
}

/** The refusal of a change to a read-only config file: what was refused, why, and where to change it instead. */
export function readOnlyRefusal(path: string, reason: string): SwitchboardError {
  return new SwitchboardError(
    ErrorCode.ConfigReadOnly,
    `the config ${path} is read-only (${reason}): it cannot be changed through Switchboard. ` +
      'Change it where it comes from (a Kubernetes ConfigMap: the Helm values, then helm upgrade) and restart',
    { path },
  );
}
