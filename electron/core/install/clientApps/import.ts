/**
 * Import: the servers a client already has become Switchboard backends, with
 * secret-looking values kept out of config.json (see secrets.ts), and
 * optionally the client's entries replaced by the single Switchboard entry
 * (one write, backed up, undoable).
 */
import type { ConfigStore } from '../../platform/config/configStore.js';
import { openConfigStore } from '../../platform/config/openConfigStore.js';
import { parseConfig } from '../../platform/config/schema.js';
import {
  clientError,
  readClientFile,
  readRecords,
  saveRecord,
  sha256,
  withRetries,
  writeClientFile,
} from './clientFiles.js';
import { isSwitchboardEntry, type ClientDefinition } from './definitions.js';
import { requireClient, targetPath, type ClientsContext, type ScopeOptions } from './install.js';
import { backendIdFor, normalizeEntry, sameServer } from './normalize.js';
import { sandboxBlocker, withDefaultSandbox } from './sandboxDefault.js';
import { environmentReferenceSink, looksSecret, type SecretSink } from './secrets.js';
import { ClientErrorCode, type ImportCandidate, type SecretFinding, type WriteOutcome } from './clientAppTypes.js';

/** Options of {@link listImportable} and {@link importServers}. */
export interface ImportOptions extends ScopeOptions {
  /** Switchboard's config file, which imported backends are added to. */
  switchboardConfig: string;
  /** Where secrets go; default: `${VAR}` references (nothing secret is written). */
  secrets?: SecretSink;
  /** The store of `switchboardConfig` to write through (a running core's); default: one of this call's own. */
  store?: ConfigStore;
}

/** The store an import reads and writes: the caller's (the core's), else one for the file. */
function storeOf(ctx: ClientsContext, options: ImportOptions): ConfigStore {
  return options.store ?? openConfigStore(options.switchboardConfig, { writer: ctx.writer, stateDir: ctx.stateDir });
}

/** Keychain writes an import still owes, per candidate (listing never writes). */
const pendingSaves = new WeakMap<ImportCandidate, (() => Promise<void>)[]>();

/**
 * Replaces each secret-looking env value or header of `entry` through `sink`;
 * the keychain writes are returned, to be run when the entry is really used.
 */
export async function keepSecrets(id: string, entry: Record<string, unknown>, sink: SecretSink) {
  const findings: SecretFinding[] = [];
  const saves: (() => Promise<void>)[] = [];
  const result = { ...entry };
  for (const field of ['env', 'headers'] as const) {
    const map = entry[field] as Record<string, string> | undefined;
    if (!map) continue;
    const next: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(map)) {
      if (!looksSecret(field, name, value)) {
        next[name] = value;
        continue;
      }
      const kept = await sink.keep({ backendId: id, field, name, value });
      next[name] = kept.replacement;
      if (kept.save) saves.push(kept.save);
      findings.push({ field: `${field}.${name}`, reference: kept.reference, resolves: kept.resolves });
    }
    result[field] = next;
  }
  return { entry: result, findings, saves };
}

async function currentServers(store: ConfigStore): Promise<Record<string, Record<string, unknown>>> {
  // Reading refuses an invalid config before anything is added to it.
  const { entries } = await store.read();
  return Object.fromEntries([...entries].map(([id, text]) => [id, JSON.parse(text) as Record<string, unknown>]));
}

/** The client's servers as they would be imported, marking the ones Switchboard already has. */
export async function listImportable(
  ctx: ClientsContext,
  id: string,
  options: ImportOptions,
): Promise<ImportCandidate[]> {
  const definition = requireClient(id);
  const path = targetPath(ctx, definition, options);
  const file = await readClientFile(definition, path);
  const map = file.document.getContainer(definition.container) ?? {};
  const existing = await currentServers(storeOf(ctx, options));
  const taken = new Set(Object.keys(existing));
  const sink = options.secrets ?? environmentReferenceSink(ctx.platform.env);
  const candidates: ImportCandidate[] = [];
  for (const [name, raw] of Object.entries(map)) {
    if (isOurs(definition, name, raw, ctx.url)) continue;
    const normalized = normalizeEntry(raw, ctx.platform.home);
    const base = backendIdFor(name);
    const candidate: ImportCandidate = {
      name,
      id: base,
      inSwitchboard: 'no',
      secrets: [],
      warnings: normalized.warnings,
    };
    candidates.push(candidate);
    if (!normalized.entry) {
      candidate.skipReason = normalized.skipReason;
      continue;
    }
    const same = Object.entries(existing).find(([, entry]) => sameServer(entry, normalized.entry!));
    if (same) {
      candidate.inSwitchboard = 'same';
      candidate.id = same[0];
      continue;
    }
    if (taken.has(base)) {
      candidate.inSwitchboard = 'name-taken';
      let n = 2;
      while (taken.has(`${base}-${n}`)) n++;
      candidate.id = `${base}-${n}`;
    }
    taken.add(candidate.id);
    try {
      const kept = await keepSecrets(candidate.id, normalized.entry, sink);
      candidate.secrets = kept.findings;
      const checked = parseConfig({ mcpServers: { [candidate.id]: kept.entry } });
      if (!checked.config) {
        candidate.skipReason = checked.problems.map((p) => `${p.path}: ${p.message}`).join('; ');
        continue;
      }
      // Someone else's code, added here from now on: sandboxed unless its entry says otherwise.
      candidate.entry = withDefaultSandbox(kept.entry);
      pendingSaves.set(candidate, kept.saves);
    } catch (error) {
      candidate.skipReason = (error as Error).message;
    }
  }
  return candidates;
}

function isOurs(definition: ClientDefinition, name: string, raw: unknown, url: string): boolean {
  if (!isSwitchboardEntry(raw)) return false;
  const record = raw as Record<string, unknown>;
  return name === definition.entryKey || record['url'] === url || record['serverUrl'] === url;
}

/** What an import did. */
export interface ImportOutcome {
  imported: {
    name: string;
    id: string;
    secrets: SecretFinding[];
    /** Saved sandboxed, but no sandbox can run it here yet: why, and what to install or run. */
    sandboxBlocked?: string;
  }[];
  skipped: { name: string; reason: string }[];
  /** Set when the client's entries were replaced by the Switchboard entry. */
  client?: WriteOutcome;
}

/**
 * Adds the chosen servers (all importable ones when `names` is omitted) to
 * Switchboard's config in one atomic write; with `replace`, then removes them
 * from the client and adds the Switchboard entry there, in one backed-up write.
 */
export async function importServers(
  ctx: ClientsContext,
  id: string,
  options: ImportOptions & { names?: string[]; replace?: boolean },
): Promise<ImportOutcome> {
  const definition = requireClient(id);
  const candidates = await listImportable(ctx, id, options);
  const wanted = options.names ?? candidates.map((c) => c.name);
  const unknown = wanted.filter((name) => !candidates.some((c) => c.name === name));
  if (unknown.length > 0) {
    throw clientError(ClientErrorCode.ImportFailed, `${definition.name} has no server named ${unknown.join(', ')}`, {
      names: unknown,
    });
  }
  const outcome: ImportOutcome = { imported: [], skipped: [] };
  const chosen = candidates.filter((c) => wanted.includes(c.name));
  for (const candidate of chosen) {
    if (candidate.inSwitchboard === 'same')
      outcome.skipped.push({ name: candidate.name, reason: `already in Switchboard as ${candidate.id}` });
    else if (!candidate.entry)
      outcome.skipped.push({ name: candidate.name, reason: candidate.skipReason ?? 'cannot be imported' });
    else {
      const blocked = sandboxBlocker(candidate.entry, ctx.platform.env);
      outcome.imported.push({
        name: candidate.name,
        id: candidate.id,
        secrets: candidate.secrets,
        ...(blocked ? { sandboxBlocked: blocked } : {}),
      });
    }
  }
  if (outcome.imported.length > 0) {
    // Secrets first: if the keychain refuses one, nothing refers to it yet.
    for (const item of outcome.imported) {
      const candidate = chosen.find((c) => c.name === item.name)!;
      for (const save of pendingSaves.get(candidate) ?? []) await save();
    }
    const store = options.store ?? storeOf(ctx, options);
    // A patch of the file as it is now: a server another writer added meanwhile under the same ID is
    // kept, and ours goes in under the next free ID (`<id>-2`...), never over it.
    await store.updateServers((servers) => {
      for (const item of outcome.imported) {
        const entry = chosen.find((c) => c.name === item.name)!.entry;
        if (servers[item.id] !== undefined && JSON.stringify(servers[item.id]) !== JSON.stringify(entry)) {
          let n = 2;
          while (servers[`${item.id}-${n}`] !== undefined) n++;
          item.id = `${item.id}-${n}`;
        }
        servers[item.id] = entry;
      }
    });
  }
  if (options.replace) {
    // Servers Switchboard now serves (imported now, or already there) leave the client.
    const moved = chosen.filter((c) => c.entry !== undefined || c.inSwitchboard === 'same').map((c) => c.name);
    outcome.client = await replaceInClient(ctx, definition, options, moved);
  }
  return outcome;
}

async function replaceInClient(
  ctx: ClientsContext,
  definition: ClientDefinition,
  scope: ScopeOptions,
  names: string[],
): Promise<WriteOutcome> {
  const path = targetPath(ctx, definition, scope);
  const token = await ctx.tokens.tokenFor(definition.id);
  const entry = definition.buildEntry({
    url: ctx.url,
    token,
    launcher: ctx.launcher,
    project: scope.project !== undefined,
    configPath: ctx.configPath,
  });
  return withRetries(async () => {
    const file = await readClientFile(definition, path);
    const map = file.document.getContainer(definition.container);
    const existing = map?.[definition.entryKey];
    if (existing !== undefined && !isSwitchboardEntry(existing) && !names.includes(definition.entryKey)) {
      throw clientError(
        ClientErrorCode.EntryConflict,
        `${path}: "${definition.container}.${definition.entryKey}" is another server; the client was not changed`,
        { path },
      );
    }
    for (const name of names) file.document.removeEntry(definition.container, name, false);
    file.document.setEntry(definition.container, definition.entryKey, entry);
    const text = file.document.toString();
    const { backup } = await writeClientFile(ctx.stateDir, definition.id, file, text, ctx.writer);
    const previous = (await readRecords(ctx.stateDir))[path];
    await saveRecord(ctx.stateDir, path, {
      path,
      kind: 'replace',
      ...(backup ? { backup } : {}),
      writtenSha256: sha256(text),
      createdFile: previous?.createdFile ?? file.original === undefined,
      createdContainer: previous?.createdContainer ?? map === undefined,
      at: new Date().toISOString(),
    });
    return {
      client: definition.id,
      path,
      changed: true,
      ...(backup ? { backup } : {}),
      notes: [`moved to Switchboard: ${names.join(', ') || 'nothing'}; undo restores the previous file`],
    };
  });
}
