/**
 * Detect, install, uninstall, undo and snippet for each client: the
 * operations behind `mcp-switchboard clients|install|uninstall|undo` and the
 * Clients screen. Install writes one entry (ours) and touches nothing else;
 * uninstall removes only that entry, so install + uninstall gives back the
 * file's bytes.
 */
import { readFile, stat } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { toErrorData } from '../../platform/toErrorData.js';
import type { AtomicWriter } from '../../platform/config/configStore.js';
import {
  clientError,
  readClientFile,
  readRecords,
  restoreBytes,
  saveRecord,
  sha256,
  withRetries,
  writeClientFile,
  type ClientFile,
} from './clientFiles.js';
import { clientDefinition, clientDefinitions, isSwitchboardEntry, type ClientDefinition } from './definitions.js';
import { gatewayEntry } from './gatewayEntries.js';
import {
  ClientErrorCode,
  type ClientStatus,
  type Launcher,
  type PlatformEnv,
  type WriteOutcome,
} from './clientAppTypes.js';

/**
 * The token each client presents. Today every client gets the one frontend
 * token; per-client tokens and profiles (issue #4) plug in here.
 */
export interface ClientTokenProvider {
  tokenFor(client: string): Promise<string>;
}

/** What every client operation needs. */
export interface ClientsContext {
  platform: PlatformEnv;
  /** Our state directory: backups and write records go there. */
  stateDir: string;
  /** The endpoint entries point at, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  launcher: Launcher;
  /** A non-default Switchboard config for `connect` entries. */
  configPath?: string;
  tokens: ClientTokenProvider;
  writer?: AtomicWriter;
  /**
   * `url` is a gateway's public URL (`gateway.resource`): the client signs in
   * with OAuth itself, and its entry carries no token (gatewayEntries.ts).
   */
  gateway?: boolean;
}

/** Scope of an operation: the user's file, or a project's. */
export interface ScopeOptions {
  /** A project directory (Claude Code's `.mcp.json`, Cursor's `.cursor/mcp.json`). */
  project?: string;
}

/** The gateway URL our entries point at, in gateway mode. */
function gatewayUrl(ctx: ClientsContext): string | undefined {
  return ctx.gateway ? ctx.url : undefined;
}

/** The definition of `id`, or `unknown_client` listing the known ones. */
export function requireClient(id: string): ClientDefinition {
  const definition = clientDefinition(id);
  if (definition) return definition;
  const known = clientDefinitions()
    .map((d) => d.id)
    .join(', ');
  throw clientError(ClientErrorCode.UnknownClient, `unknown client "${id}"; known clients: ${known}`, { client: id });
}

/** The file an operation on `definition` in `scope` reads and writes. */
export function targetPath(ctx: ClientsContext, definition: ClientDefinition, scope: ScopeOptions): string {
  if (scope.project === undefined) return definition.configPath(ctx.platform);
  if (!definition.projectPath) {
    throw clientError(ClientErrorCode.ProjectUnsupported, `${definition.name} has no project-scope file we write to`, {
      client: definition.id,
    });
  }
  return definition.projectPath(scope.project);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The server map of a parsed file; a map that is there but not an object is refused. */
function serverMap(definition: ClientDefinition, file: ClientFile): Record<string, unknown> | undefined {
  if (file.document.containerKind(definition.container) === 'other') {
    throw clientError(
      ClientErrorCode.ClientConfigUnexpected,
      `${file.path}: "${definition.container}" is not an object; the file was not changed`,
      { path: file.path },
    );
  }
  return file.document.getContainer(definition.container);
}

/** Every known client: detected or not, our entry present or not. Never throws: a bad file is reported in `problem`. */
export async function detectClients(ctx: ClientsContext): Promise<ClientStatus[]> {
  return Promise.all(
    clientDefinitions().map(async (definition) => {
      const configPath = definition.configPath(ctx.platform);
      const configExists = await exists(configPath);
      const detected =
        configExists || (await Promise.all(definition.detectPaths(ctx.platform).map(exists))).some(Boolean);
      const status: ClientStatus = {
        id: definition.id,
        name: definition.name,
        configPath,
        detected,
        configExists,
        installed: false,
        entryKey: definition.entryKey,
        transport: definition.transport,
        supportsProject: definition.projectPath !== undefined,
        toolNameBudget: definition.toolNameBudget,
      };
      if (!configExists) return status;
      try {
        const file = await readClientFile(definition, configPath);
        status.installed = isSwitchboardEntry(serverMap(definition, file)?.[definition.entryKey], gatewayUrl(ctx));
      } catch (error) {
        status.problem = toErrorData(error);
      }
      return status;
    }),
  );
}

/** Deep equality of parsed values (parsers may build objects without a prototype, which isDeepStrictEqual tells apart). */
function sameJson(a: unknown, b: unknown): boolean {
  return a !== undefined && isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
}

/** The entry as shown to people: the token replaced by `<token>`. */
export function maskToken(entry: Record<string, unknown>, token: string): Record<string, unknown> {
  if (token === '') return entry;
  return JSON.parse(JSON.stringify(entry).split(token).join('<token>')) as Record<string, unknown>;
}

/** Our entry for a client in a scope, and the token in it. */
export async function entryFor(ctx: ClientsContext, definition: ClientDefinition, scope: ScopeOptions) {
  if (ctx.gateway) return { entry: gatewayEntry(ctx, definition), token: '' };
  const token = await ctx.tokens.tokenFor(definition.id);
  const project = scope.project !== undefined;
  const target = { url: ctx.url, token, launcher: ctx.launcher, project, configPath: ctx.configPath };
  return { entry: definition.buildEntry(target), token };
}

/** Adds (or updates) our entry in the client's file. */
export async function installClient(ctx: ClientsContext, id: string, scope: ScopeOptions = {}): Promise<WriteOutcome> {
  const definition = requireClient(id);
  const path = targetPath(ctx, definition, scope);
  const { entry, token } = await entryFor(ctx, definition, scope);
  const notes: string[] = [];
  if (ctx.gateway) {
    notes.push(`${definition.name} signs in to the gateway ${ctx.url} with OAuth itself: the entry holds no token.`);
  } else if (scope.project !== undefined) {
    notes.push(
      `${path} is usually committed, so it holds no token: ${definition.name} reads it from the SWITCHBOARD_TOKEN ` +
        'environment variable, which Switchboard also uses as its token when set.',
    );
  }
  return withRetries(async () => {
    const file = await readClientFile(definition, path);
    const map = serverMap(definition, file);
    const existing = map?.[definition.entryKey];
    if (existing !== undefined && !isSwitchboardEntry(existing, gatewayUrl(ctx))) {
      throw clientError(
        ClientErrorCode.EntryConflict,
        `${path}: "${definition.container}.${definition.entryKey}" is another server, not Switchboard; rename or remove it first`,
        { path, key: definition.entryKey },
      );
    }
    const shown = maskToken(entry, token);
    if (sameJson(existing, entry)) return { client: definition.id, path, changed: false, entry: shown, notes };
    try {
      file.document.setEntry(definition.container, definition.entryKey, entry);
    } catch (error) {
      throw clientError(ClientErrorCode.ClientConfigUnexpected, `${path}: ${(error as Error).message}`, { path });
    }
    const text = file.document.toString();
    const { backup } = await writeClientFile(ctx.stateDir, definition.id, file, text, ctx.writer);
    const previous = (await readRecords(ctx.stateDir))[path];
    // Updating our entry in a file untouched since our install: the pre-install backup still holds "without us".
    const chained =
      existing !== undefined &&
      previous?.kind === 'install' &&
      file.original !== undefined &&
      previous.writtenSha256 === sha256(file.original);
    const kept = chained ? previous.backup : backup;
    await saveRecord(ctx.stateDir, path, {
      path,
      kind: existing === undefined || chained ? 'install' : 'update',
      ...(kept ? { backup: kept } : {}),
      writtenSha256: sha256(text),
      // A re-install keeps what the first install found, so uninstall still restores the original shape.
      createdFile: previous?.createdFile ?? file.original === undefined,
      createdContainer: previous?.createdContainer ?? map === undefined,
      at: new Date().toISOString(),
    });
    return { client: definition.id, path, changed: true, ...(backup ? { backup } : {}), entry: shown, notes };
  });
}

/** Removes our entry (only ours) from the client's file. */
export async function uninstallClient(
  ctx: ClientsContext,
  id: string,
  scope: ScopeOptions = {},
): Promise<WriteOutcome> {
  const definition = requireClient(id);
  const path = targetPath(ctx, definition, scope);
  return withRetries(async () => {
    const file = await readClientFile(definition, path);
    const existing = serverMap(definition, file)?.[definition.entryKey];
    if (existing === undefined) {
      throw clientError(ClientErrorCode.NotInstalled, `Switchboard is not installed in ${definition.name} (${path})`, {
        path,
      });
    }
    if (!isSwitchboardEntry(existing, gatewayUrl(ctx))) {
      throw clientError(
        ClientErrorCode.EntryConflict,
        `${path}: "${definition.container}.${definition.entryKey}" is not a Switchboard entry; it was left alone`,
        { path, key: definition.entryKey },
      );
    }
    const record = (await readRecords(ctx.stateDir))[path];
    if (record?.kind === 'install' && file.original !== undefined && sha256(file.original) === record.writtenSha256) {
      // Nobody touched the file since our install: its previous bytes are exactly the file without our entry.
      const { backup } = await writeClientFile(
        ctx.stateDir,
        definition.id,
        file,
        await previousBytes(record.backup),
        ctx.writer,
      );
      await saveRecord(ctx.stateDir, path, undefined);
      return { client: definition.id, path, changed: true, ...(backup ? { backup } : {}), notes: [] };
    }
    try {
      file.document.removeEntry(definition.container, definition.entryKey, record?.createdContainer ?? false);
    } catch (error) {
      throw clientError(ClientErrorCode.ClientConfigUnexpected, `${path}: ${(error as Error).message}`, { path });
    }
    let text: string | undefined = file.document.toString();
    if (record?.createdFile && isEmptyDocument(definition, text)) text = undefined;
    const { backup } = await writeClientFile(ctx.stateDir, definition.id, file, text, ctx.writer);
    await saveRecord(ctx.stateDir, path, undefined);
    return { client: definition.id, path, changed: true, ...(backup ? { backup } : {}), notes: [] };
  });
}

/** The bytes of a backup (undefined: the file did not exist before). */
async function previousBytes(backup: string | undefined): Promise<string | undefined> {
  return backup === undefined ? undefined : readFile(backup, 'utf8');
}

function isEmptyDocument(definition: ClientDefinition, text: string): boolean {
  if (definition.format === 'toml') return text.replace(/\s+/g, '') === '';
  return /^\s*(\{\s*\})?\s*$/.test(text);
}

/**
 * Puts back the bytes from before our last write to this client file
 * (install, uninstall or import with replace), provided nobody changed the
 * file since; otherwise `changed_since_write`, and the backup path to restore by hand.
 */
export async function undoLastWrite(ctx: ClientsContext, id: string, scope: ScopeOptions = {}): Promise<WriteOutcome> {
  const definition = requireClient(id);
  const path = targetPath(ctx, definition, scope);
  const record = (await readRecords(ctx.stateDir))[path];
  if (!record) throw clientError(ClientErrorCode.NoBackup, `no write of ours to ${path} to undo`, { path });
  const file = await readClientFile(definition, path).catch(() => undefined);
  if (!file || file.original === undefined || sha256(file.original) !== record.writtenSha256) {
    throw clientError(
      ClientErrorCode.ChangedSinceWrite,
      `${path} changed since Switchboard wrote it; restore ${record.backup ?? 'nothing (it did not exist)'} by hand if you want`,
      { path, ...(record.backup ? { backup: record.backup } : {}) },
    );
  }
  await restoreBytes(file.realPath, record.backup, ctx.writer);
  await saveRecord(ctx.stateDir, path, undefined);
  return { client: definition.id, path, changed: true, ...(record.backup ? { backup: record.backup } : {}), notes: [] };
}
