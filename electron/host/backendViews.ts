/**
 * Backends as the UI sees them: health plus the editable config entry, with
 * every secret value taken out. Keychain references stay (they are names);
 * header values and secret-looking env values become `{kind: 'hidden'}` and
 * leave the entry, and an edit keeps them unless it sets them again. Secrets
 * inline in the URL or the arguments (`?token=…`, `--api-key=…`) show as
 * `****`, and an edit that leaves them so keeps the real values.
 */
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { BackendView, ConfigValueView } from '../../shared/model/views.js';
import { entryTypeOf } from '../../shared/model/transports.js';
import { looksSecret } from '../core/install/index.js';
import {
  inspectArgs,
  inspectUrl,
  restoreMaskedUrl,
  type BackendConfig,
  isSecretReference,
} from '../core/platform/index.js';
import type { Switchboard } from '../core/api/index.js';

type Entry = Record<string, unknown>;
const FIELDS = ['env', 'headers'] as const;

/** A config entry rebuilt from a validated backend (when the file cannot be read). */
export function entryFromConfig(backend: BackendConfig): Entry {
  const entry: Entry =
    backend.transport === 'stdio'
      ? {
          command: backend.command,
          ...(backend.args.length > 0 ? { args: backend.args } : {}),
          ...(Object.keys(backend.env).length > 0 ? { env: backend.env } : {}),
          ...(backend.cwd !== undefined ? { cwd: backend.cwd } : {}),
          ...(backend.sandbox !== undefined ? { sandbox: backend.sandbox } : {}),
        }
      : {
          url: backend.url,
          ...entryTypeOf(backend.transport),
          ...(Object.keys(backend.headers).length > 0 ? { headers: backend.headers } : {}),
          ...(backend.oauth !== undefined ? { oauth: backend.oauth } : {}),
        };
  if (backend.prefix !== backend.id) entry['prefix'] = backend.prefix;
  if (!backend.enabled) entry['enabled'] = false;
  if (backend.serialize) entry['serialize'] = true;
  if (backend.maxQueue !== undefined) entry['maxQueue'] = backend.maxQueue;
  if (backend.requestTimeoutMs !== undefined) entry['requestTimeoutMs'] = backend.requestTimeoutMs;
  if (backend.protocol !== 'auto') entry['protocol'] = backend.protocol;
  if (backend.description !== undefined) entry['description'] = backend.description;
  if (backend.source !== undefined) entry['source'] = backend.source;
  return entry;
}

/**
 * The raw entries of every backend in force: from the config file when it
 * reads and agrees with the running config, else rebuilt from the running one.
 */
export async function rawEntries(core: Switchboard, configPath: string | undefined): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  let stored: Map<string, string> | undefined;
  if (configPath !== undefined && core.configStore) {
    try {
      stored = (await core.configStore.read()).entries;
    } catch {
      stored = undefined; // a refused hand edit: the running config is what counts
    }
  }
  for (const backend of core.backends.backendConfigs()) {
    const text = stored?.get(backend.id);
    entries.set(backend.id, text !== undefined ? (JSON.parse(text) as Entry) : entryFromConfig(backend));
  }
  return entries;
}

/** The raw entry of one backend (throws unknown_backend). */
export async function rawEntry(core: Switchboard, configPath: string | undefined, id: string): Promise<Entry> {
  const entry = (await rawEntries(core, configPath)).get(id);
  if (!entry) throw new SwitchboardError(ErrorCode.UnknownBackend, `no backend with ID "${id}"`, { backend: id });
  return entry;
}

/** Whether a plain value must not be shown: every literal header value, secret-looking env values. */
function hidden(field: (typeof FIELDS)[number], name: string, value: string): boolean {
  if (field === 'env') return looksSecret('env', name, value);
  const literal = value.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}/g, '').trim();
  return literal !== '' && !/^(bearer|basic|token)$/i.test(literal);
}

/** The arguments of an entry, when they are a list of strings. */
function stringArgs(entry: Entry): string[] | undefined {
  const args = entry['args'];
  return Array.isArray(args) && args.every((arg) => typeof arg === 'string') ? args : undefined;
}

/** An entry with secret values taken out, and how each env/header value may be shown. */
export function redactEntry(raw: Entry): { entry: Entry; values: Record<string, ConfigValueView> } {
  const entry: Entry = structuredClone(raw);
  if (typeof entry['url'] === 'string') entry['url'] = inspectUrl(entry['url']).masked;
  const args = stringArgs(entry);
  if (args) entry['args'] = inspectArgs(args).masked;
  const values: Record<string, ConfigValueView> = {};
  for (const field of FIELDS) {
    const map = entry[field];
    if (map === null || typeof map !== 'object') continue;
    const kept: Entry = {};
    for (const [name, value] of Object.entries(map as Entry)) {
      if (isSecretReference(value)) {
        values[name] = { kind: 'secret', name: value.secret };
        kept[name] = value;
      } else if (typeof value === 'string' && !hidden(field, name, value)) {
        values[name] = { kind: 'plain', value };
        kept[name] = value;
      } else {
        values[name] = { kind: 'hidden' };
      }
    }
    entry[field] = kept;
  }
  return { entry, values };
}

/**
 * An edited entry with the hidden values of `previous` put back where the
 * edit did not set them; a `null` value removes one.
 */
export function mergeHidden(previous: Entry, next: Entry): Entry {
  const merged: Entry = structuredClone(next);
  // A URL or arguments sent back as shown (secrets masked) keep their real secrets.
  if (typeof previous['url'] === 'string' && typeof merged['url'] === 'string') {
    merged['url'] = restoreMaskedUrl(previous['url'], merged['url']);
  }
  const before = stringArgs(previous);
  const after = stringArgs(merged);
  if (before && after) {
    const shown = inspectArgs(before).masked;
    const unmasked = shown.map((text, at) => ({ text, real: before[at] as string })).filter((p) => p.text !== p.real);
    merged['args'] = after.map((arg) => {
      const at = unmasked.findIndex((pair) => pair.text === arg);
      return at === -1 ? arg : (unmasked.splice(at, 1)[0] as { real: string }).real;
    });
  }
  for (const field of FIELDS) {
    const before = (previous[field] ?? {}) as Entry;
    const after = (merged[field] ?? {}) as Entry;
    const { values } = redactEntry({ [field]: before });
    const result: Entry = {};
    for (const [name, view] of Object.entries(values)) {
      if (view.kind === 'hidden' && !(name in after)) result[name] = before[name];
    }
    for (const [name, value] of Object.entries(after)) if (value !== null) result[name] = value;
    if (Object.keys(result).length > 0) merged[field] = result;
    else delete merged[field];
  }
  return merged;
}

/** The command line or URL of an entry, for display. */
function targetOf(entry: Entry): string {
  if (typeof entry['url'] === 'string') return entry['url'];
  const args = Array.isArray(entry['args']) ? (entry['args'] as unknown[]).map(String) : [];
  return [String(entry['command'] ?? ''), ...args]
    .map((part) => (/\s/.test(part) ? JSON.stringify(part) : part))
    .join(' ');
}

/** Views of every backend, in config order. */
export async function backendViews(core: Switchboard, configPath: string | undefined): Promise<BackendView[]> {
  const entries = await rawEntries(core, configPath);
  const configs = new Map(core.backends.backendConfigs().map((backend) => [backend.id, backend]));
  return core.backends.health().map((health) => {
    const raw = entries.get(health.id) ?? {};
    const { entry, values } = redactEntry(raw);
    const config = configs.get(health.id);
    const remote = config !== undefined && config.transport !== 'stdio';
    const oauth =
      remote && (raw['oauth'] !== undefined || health.auth !== undefined || health.status === 'needs-authorization');
    return {
      health,
      enabled: config?.enabled ?? health.status !== 'disabled',
      target: targetOf(entry),
      entry,
      values,
      ...(oauth ? { oauth: { configured: health.auth?.state === 'authorized' || raw['oauth'] !== undefined } } : {}),
    };
  });
}

/** The view of one backend (throws unknown_backend). */
export async function backendView(core: Switchboard, configPath: string | undefined, id: string): Promise<BackendView> {
  const view = (await backendViews(core, configPath)).find((candidate) => candidate.health.id === id);
  if (!view) throw new SwitchboardError(ErrorCode.UnknownBackend, `no backend with ID "${id}"`, { backend: id });
  return view;
}
