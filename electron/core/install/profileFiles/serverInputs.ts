/**
 * A server entry's secrets as named inputs, and back. Going out, every
 * `{"secret": NAME}` becomes `{"input": NAME}`; every plain env or header
 * value that looks secret (the rule client imports use, clientApps/secrets.ts)
 * becomes `{"input": "<server>.<KEY>"}`; and every secret the inline-secret
 * detection finds in the URL or the arguments (platform/config/inlineSecrets.ts)
 * becomes `${input:NAME}` inside its string. Coming in, whole inputs become
 * keychain references again, and inline ones get their value back in place
 * (an argument or a URL cannot refer to the keychain).
 */
import { inspectArgs, inspectUrl, MASK } from '../../platform/config/inlineSecrets.js';
import { isSecretReference } from '../../platform/secrets/secretStore.js';
import { looksSecret } from '../clientApps/secrets.js';
import type { ProfileFileInput } from './profileFileSchema.js';

/** An inline input inside a string: `${input:NAME}`. */
const INLINE_INPUT = /\$\{input:([A-Za-z0-9][A-Za-z0-9._-]{0,127})\}/g;

/** A server entry written out, and the inputs it needs. */
export interface ServerWithInputs {
  entry: Record<string, unknown>;
  inputs: Record<string, ProfileFileInput>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A name usable as an input (and keychain) name: letters, digits, `.`, `_`, `-`. */
function inputNameOf(text: string): string {
  const cleaned = text.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 128);
  return /^[A-Za-z0-9]/.test(cleaned) ? cleaned : `x${cleaned}`.slice(0, 128);
}

/** Replaces each masked part (`****`) of `masked` in order with `${input:NAME}` of the given names. */
function withInputs(masked: string, names: readonly string[]): string {
  let index = 0;
  return masked.split(MASK).reduce((out, part, i) => (i === 0 ? part : `${out}\${input:${names[index++]}}${part}`));
}

/** The secret-free copy of a server's entry (raw, as in config.json) and its inputs. */
export function entryToInputs(serverId: string, raw: Record<string, unknown>): ServerWithInputs {
  const entry = structuredClone(raw);
  const inputs: Record<string, ProfileFileInput> = {};
  const declare = (name: string, description: string): string => {
    inputs[name] ??= { description, secret: true };
    return name;
  };
  const valueMap = (holder: Record<string, unknown>, field: 'env' | 'headers', label: string): void => {
    const values = holder[field];
    if (!isRecord(values)) return;
    for (const [key, value] of Object.entries(values)) {
      if (isSecretReference(value)) {
        values[key] = { input: declare(inputNameOf(value.secret), `${serverId}: ${label}.${key}`) };
      } else if (typeof value === 'string' && looksSecret(field, key, value)) {
        values[key] = { input: declare(inputNameOf(`${serverId}.${key}`), `${serverId}: ${label}.${key}`) };
      }
    }
  };
  const args = (holder: Record<string, unknown>, label: string): void => {
    const list = holder['args'];
    if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) return;
    const masked = inspectArgs(list as string[]).masked;
    holder['args'] = masked.map((arg, i) => {
      if (!arg.includes(MASK) || arg === list[i]) return list[i];
      const count = arg.split(MASK).length - 1;
      const names = Array.from({ length: count }, (_unused, n) =>
        declare(inputNameOf(`${serverId}.${label}${i}${count > 1 ? `.${n}` : ''}`), `${serverId}: ${label}[${i}]`),
      );
      return withInputs(arg, names);
    });
  };
  valueMap(entry, 'env', 'env');
  valueMap(entry, 'headers', 'headers');
  args(entry, 'args');
  if (typeof entry['url'] === 'string') {
    const { masked } = inspectUrl(entry['url']);
    if (masked !== entry['url']) {
      const count = masked.split(MASK).length - 1;
      const names = Array.from({ length: count }, (_unused, n) =>
        declare(inputNameOf(`${serverId}.url${count > 1 ? `.${n}` : ''}`), `${serverId}: a secret in its URL`),
      );
      entry['url'] = withInputs(masked, names);
    }
  }
  const launch = entry['launch'];
  if (isRecord(launch)) {
    valueMap(launch, 'env', 'launch.env');
    args(launch, 'launch.args');
  }
  const oauth = entry['oauth'];
  if (isRecord(oauth) && isSecretReference(oauth['clientSecret'])) {
    const name = inputNameOf(oauth['clientSecret'].secret);
    oauth['clientSecret'] = { input: declare(name, `${serverId}: oauth.clientSecret`) };
  }
  return { entry, inputs };
}

/** Where each input is used in an entry, by dotted path (for problems naming the field). */
export function inputUses(entry: unknown, path: string): { name: string; path: string; inline: boolean }[] {
  if (typeof entry === 'string') {
    return [...entry.matchAll(INLINE_INPUT)].map((match) => ({ name: match[1] as string, path, inline: true }));
  }
  if (Array.isArray(entry)) return entry.flatMap((item, i) => inputUses(item, `${path}.${i}`));
  if (!isRecord(entry)) return [];
  if (Object.keys(entry).length === 1 && typeof entry['input'] === 'string') {
    return [{ name: entry['input'], path, inline: false }];
  }
  return Object.entries(entry).flatMap(([key, value]) => inputUses(value, `${path}.${key}`));
}

/**
 * The entry to save: each whole input becomes `{"secret": NAME}` (the value is
 * stored in the keychain under that name) and each inline one its value.
 */
export function entryFromInputs(entry: unknown, inlineValues: (name: string) => string): unknown {
  if (typeof entry === 'string') return entry.replace(INLINE_INPUT, (_all, name: string) => inlineValues(name));
  if (Array.isArray(entry)) return entry.map((item) => entryFromInputs(item, inlineValues));
  if (!isRecord(entry)) return entry;
  if (Object.keys(entry).length === 1 && typeof entry['input'] === 'string') return { secret: entry['input'] };
  return Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, entryFromInputs(value, inlineValues)]));
}

/**
 * The environment variable that gives a profile file's input without a
 * prompt: `SWITCHBOARD_INPUT_` and the input's name in capitals, each
 * character other than a letter or digit as `_` (`github-token` ->
 * `SWITCHBOARD_INPUT_GITHUB_TOKEN`). Not a command-line flag: other users
 * could read it from the process list.
 */
export function inputVariable(name: string): string {
  return `SWITCHBOARD_INPUT_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}
