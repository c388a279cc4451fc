/**
 * Reading and writing a client's config file without damaging it: parse
 * before touching (a malformed file is refused, naming the line), keep a
 * timestamped backup of the previous bytes in our state directory, write
 * atomically (temp + fsync + rename) to the symlink's target with the file's
 * own mode, and re-read just before writing so a client that saved the file
 * meanwhile (Claude Code rewrites ~/.claude.json often) is not overwritten.
 */
import { createHash } from 'node:crypto';
import { chmod, copyFile, mkdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { SwitchboardError } from '../../../../shared/errors.js';
import { fileWriter, type AtomicWriter } from '../../platform/config/configStore.js';
import type { ClientDefinition } from './definitions.js';
import { JsonDocument } from './documents/jsonDocument.js';
import { TomlDocument } from './documents/tomlDocument.js';
import type { ConfigDocument } from './documents/documentTypes.js';
import { ClientErrorCode } from './clientAppTypes.js';

/** A SwitchboardError with one of this module's codes. */
export function clientError(code: ClientErrorCode, message: string, data?: Record<string, unknown>): SwitchboardError {
  return new SwitchboardError(code, message, data);
}

/** A client file as read: its bytes (undefined when absent), the real path written to, and the parsed document. */
export interface ClientFile {
  path: string;
  realPath: string;
  original: string | undefined;
  document: ConfigDocument;
  mode: number | undefined;
}

/** Parses `text` in the client's syntax, or throws `client_config_malformed` naming the file, line and column. */
export function parseDocument(definition: ClientDefinition, path: string, text: string): ConfigDocument {
  const parsed =
    definition.format === 'toml' ? TomlDocument.parse(text) : JsonDocument.parse(text, definition.format === 'jsonc');
  if (parsed.document) return parsed.document;
  const problem = parsed.problem!;
  throw clientError(
    ClientErrorCode.ClientConfigMalformed,
    `${path}:${problem.line}:${problem.column}: ${problem.message}; the file was not changed`,
    { path, line: problem.line, column: problem.column },
  );
}

/** Reads and parses a client file (missing is empty). */
export async function readClientFile(definition: ClientDefinition, path: string): Promise<ClientFile> {
  let realPath = path;
  try {
    realPath = await realpath(path);
  } catch {
    // Missing: written where asked.
  }
  let original: string | undefined;
  let mode: number | undefined;
  try {
    original = await readFile(realPath, 'utf8');
    mode = (await stat(realPath)).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw clientError(ClientErrorCode.ClientConfigMalformed, `cannot read ${path}: ${(error as Error).message}`, {
        path,
      });
    }
  }
  return { path, realPath, original, mode, document: parseDocument(definition, path, original ?? '') };
}

/** A record of one write of ours, kept so undo and uninstall know what they may restore. */
export interface WriteRecord {
  path: string;
  /**
   * `install`: the backup is the file without our entry (uninstall may restore it while the file is unchanged);
   * `update`: our entry was rewritten in a file changed by others; `replace`: import also removed the client's servers.
   */
  kind: 'install' | 'update' | 'replace';
  /** The backup of the bytes before our write (for `install`, before the first one); absent when the file did not exist. */
  backup?: string;
  /** sha256 of the bytes we wrote: undo only restores a file nobody changed since. */
  writtenSha256: string;
  /** The file did not exist before our first write. */
  createdFile: boolean;
  /** The server map did not exist before our first install. */
  createdContainer: boolean;
  at: string;
}

/** sha256 of a text, hex. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function recordsPath(stateDir: string): string {
  return join(stateDir, 'client-writes.json');
}

/** Every write record, by client file path. */
export async function readRecords(stateDir: string): Promise<Record<string, WriteRecord>> {
  try {
    return JSON.parse(await readFile(recordsPath(stateDir), 'utf8')) as Record<string, WriteRecord>;
  } catch {
    return {};
  }
}

/** Saves (or with `undefined`, forgets) the record for `path`. */
export async function saveRecord(stateDir: string, path: string, record: WriteRecord | undefined): Promise<void> {
  const records = await readRecords(stateDir);
  if (record) records[path] = record;
  else delete records[path];
  await fileWriter.write(recordsPath(stateDir), `${JSON.stringify(records, null, 2)}\n`);
}

/** Copies the current bytes to `<state dir>/backups/<client>/<time>-<name>` (kept; never pruned automatically). */
async function backUp(stateDir: string, clientId: string, file: ClientFile): Promise<string | undefined> {
  if (file.original === undefined) return undefined;
  const directory = join(stateDir, 'backups', clientId);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let target = join(directory, `${stamp}-${basename(file.path)}`);
  for (let n = 2; await exists(target); n++) target = join(directory, `${stamp}-${n}-${basename(file.path)}`);
  await copyFile(file.realPath, target);
  await chmod(target, 0o600); // a client file may hold tokens
  return target;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes `text` over the client file after backing it up, unless the file
 * changed since `file` was read (then throws, and the caller re-reads).
 * `text === undefined` deletes the file (it was ours alone).
 */
export async function writeClientFile(
  stateDir: string,
  clientId: string,
  file: ClientFile,
  text: string | undefined,
  writer: AtomicWriter = fileWriter,
): Promise<{ backup: string | undefined }> {
  const current = await readFile(file.realPath, 'utf8').catch(() => undefined);
  if (current !== file.original) throw new ConcurrentChange(file.path);
  const backup = await backUp(stateDir, clientId, file);
  try {
    if (text === undefined) await rm(file.realPath, { force: true });
    else {
      await writer.write(file.realPath, text);
      // The atomic writer creates its temp file 0600: give the file back its own mode.
      if (file.mode !== undefined) await chmod(file.realPath, file.mode);
    }
  } catch (error) {
    throw clientError(
      ClientErrorCode.WriteFailed,
      `cannot write ${file.path}: ${(error as Error).message}; the file was left as it was`,
      { path: file.path, ...(backup ? { backup } : {}) },
    );
  }
  return { backup };
}

/** The file changed between our read and our write. */
export class ConcurrentChange extends Error {
  constructor(readonly path: string) {
    super(`${path} changed while it was being edited`);
  }
}

/**
 * Runs read-modify-write, re-reading and retrying when the client saved the
 * file in between (three tries), so neither side's change is lost.
 */
export async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ConcurrentChange) || tries >= 3) throw error;
    }
  }
}

/** Restores the bytes of `backup` over `path` (used by undo). */
export async function restoreBytes(path: string, backup: string | undefined, writer: AtomicWriter = fileWriter) {
  if (backup === undefined) {
    await rm(path, { force: true });
    return;
  }
  const mode = (await stat(path).catch(() => undefined))?.mode;
  await writer.write(path, await readFile(backup, 'utf8'));
  if (mode !== undefined) await chmod(path, mode & 0o777);
}
