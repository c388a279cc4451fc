/**
 * The custom-server form's state and its translation to and from a backend
 * config entry. Values marked secret go to the keychain (`secrets.set`) and the
 * entry only references them as `{"secret": name}`.
 */
import type { ConfigValueView } from '../../../../shared/model/views.js';
import { remoteTransportNamed, type TransportKind } from '../../../../shared/model/transports.js';
import { BACKEND_ID_RULE, secretNameFor, type PendingSecret } from '../../../../shared/presets.js';
import { secretLookingName } from '../../../../shared/secretNames.js';
import { badIdMessage } from '../../../../shared/ids.js';

/** One env variable or header row. */
export interface KeyValueRow {
  key: string;
  value: string;
  /** Store the value in the keychain. */
  secret: boolean;
  /** The user set `secret` with the row's switch: a name change no longer decides it. */
  secretChosen?: boolean;
  /** Already a keychain reference (editing): kept unless a new value is typed. */
  existingSecret?: string;
  /** A value the core does not show (editing): kept by `backends.update` unless a new value is typed. */
  hidden?: boolean;
}

/** Everything the custom-server form holds. */
export interface ServerFormState {
  id: string;
  transport: TransportKind;
  command: string;
  /** One argument per line. */
  args: string;
  cwd: string;
  env: KeyValueRow[];
  url: string;
  headers: KeyValueRow[];
  /** When it starts: `default` leaves the choice to the proxy options (`defaultStart`). */
  start: 'default' | 'eager' | 'on-demand';
  /**
   * A stdio server's sandbox, as a new server's entry gets it (on by default);
   * undefined when editing: the entry keeps its own (changed on the card).
   */
  sandbox?: boolean;
}

/** An empty form. */
export function emptyServerForm(): ServerFormState {
  return {
    id: '',
    transport: 'stdio',
    command: '',
    args: '',
    cwd: '',
    env: [],
    url: '',
    headers: [],
    start: 'default',
    sandbox: true,
  };
}

function rowsFrom(map: unknown): KeyValueRow[] {
  if (typeof map !== 'object' || map === null) return [];
  return Object.entries(map as Record<string, unknown>).map(([key, value]) => {
    if (typeof value === 'string') return { key, value, secret: false };
    const name = (value as { secret?: unknown } | null)?.secret;
    return typeof name === 'string'
      ? { key, value: '', secret: true, existingSecret: name }
      : { key, value: '', secret: true };
  });
}

/** Rows for values the core hides (left out of `entry`), so the form shows they exist. */
function hiddenRows(values: Record<string, ConfigValueView> | undefined, shown: KeyValueRow[]): KeyValueRow[] {
  const names = new Set(shown.map((row) => row.key));
  return Object.entries(values ?? {})
    .filter(([name, value]) => value.kind === 'hidden' && !names.has(name))
    .map(([key]) => ({ key, value: '', secret: true, hidden: true }));
}

/**
 * `row` with its name set to `key`: until the user flips the row's switch, a
 * secret-looking name (`*_TOKEN`, `*_KEY`, `*SECRET*`, `*PASSWORD*`) makes it secret.
 */
export function renamedRow(row: KeyValueRow, key: string, field: 'env' | 'headers'): KeyValueRow {
  if (row.secretChosen || row.existingSecret || row.hidden) return { ...row, key };
  return { ...row, key, secret: secretLookingName(field, key.trim()) };
}

/** The form for editing an existing entry (`values`: the view's env/header values, for hidden ones). */
export function formFromEntry(
  id: string,
  entry: Record<string, unknown>,
  values?: Record<string, ConfigValueView>,
): ServerFormState {
  const remote = typeof entry['url'] === 'string';
  const env = rowsFrom(entry['env']);
  const headers = rowsFrom(entry['headers']);
  return {
    id,
    transport: remote ? remoteTransportNamed(entry['type'] ?? entry['transport']) : 'stdio',
    command: typeof entry['command'] === 'string' ? entry['command'] : '',
    args: Array.isArray(entry['args']) ? entry['args'].map(String).join('\n') : '',
    cwd: typeof entry['cwd'] === 'string' ? entry['cwd'] : '',
    env: remote ? env : [...env, ...hiddenRows(values, env)],
    url: remote ? String(entry['url']) : '',
    headers: remote ? [...headers, ...hiddenRows(values, headers)] : headers,
    start: entry['start'] === 'eager' || entry['start'] === 'on-demand' ? entry['start'] : 'default',
  };
}

/** The entry, the secrets to store first, and what is missing. */
export interface FormEntry {
  entry: Record<string, unknown>;
  secrets: PendingSecret[];
  problems: string[];
  /**
   * The same problems by the field they are about, to show on it: `id`,
   * `command`, `url`, or a row as `env.0` / `headers.2` (0-based).
   */
  fields: Record<string, string>;
}

/** Records `message` as a problem of `field`. */
function problem(out: FormEntry, field: string, message: string): void {
  out.problems.push(message);
  out.fields[field] ??= message;
}

function valuesFrom(
  rows: KeyValueRow[],
  id: string,
  what: string,
  field: 'env' | 'headers',
  out: FormEntry,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [index, row] of rows.entries()) {
    const key = row.key.trim();
    if (!key) {
      if (row.value) problem(out, `${field}.${index}`, `This ${what.toLowerCase()} has a value but no name.`);
      continue;
    }
    if (row.secret) {
      if (row.value) {
        const name = secretNameFor(id, key);
        out.secrets.push({ name, value: row.value });
        values[key] = { secret: name };
      } else if (row.existingSecret) values[key] = { secret: row.existingSecret };
      else if (row.hidden)
        continue; // left out: the core keeps the hidden value
      else problem(out, `${field}.${index}`, `${what} ${key} needs a value.`);
    } else values[key] = row.value;
  }
  return values;
}

/** The command line as it will run, for the preview before adding. */
export function argsOfForm(form: ServerFormState): string[] {
  return form.args
    .split('\n')
    .map((arg) => arg.trim())
    .filter(Boolean);
}

/** Builds the backend entry from the form (original entry's other options are kept when editing). */
export function entryFromForm(form: ServerFormState, base: Record<string, unknown> = {}): FormEntry {
  const out: FormEntry = { entry: {}, secrets: [], problems: [], fields: {} };
  const id = form.id.trim();
  if (!BACKEND_ID_RULE.test(id)) problem(out, 'id', badIdMessage('name'));
  const keep = Object.fromEntries(
    Object.entries(base).filter(
      ([key]) => !['type', 'transport', 'command', 'args', 'cwd', 'env', 'url', 'headers', 'start'].includes(key),
    ),
  );
  if (form.transport === 'stdio') {
    if (!form.command.trim()) problem(out, 'command', 'Enter the command that starts the server.');
    const args = argsOfForm(form);
    out.entry = { ...keep, command: form.command.trim(), args };
    const env = valuesFrom(form.env, id, 'Environment variable', 'env', out);
    if (Object.keys(env).length > 0) out.entry['env'] = env;
    if (form.cwd.trim()) out.entry['cwd'] = form.cwd.trim();
    if (form.sandbox !== undefined) out.entry['sandbox'] = form.sandbox;
  } else {
    if (!/^https?:\/\/\S+$/.test(form.url.trim())) problem(out, 'url', 'Enter an http:// or https:// URL.');
    out.entry = { ...keep, type: form.transport, url: form.url.trim() };
    const headers = valuesFrom(form.headers, id, 'Header', 'headers', out);
    if (Object.keys(headers).length > 0) out.entry['headers'] = headers;
  }
  if (form.start !== 'default') out.entry['start'] = form.start;
  return out;
}
