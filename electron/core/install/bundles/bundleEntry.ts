/**
 * What a bundle runs as: its `user_config` values (given, else defaults;
 * required ones named when missing) and `server.mcp_config` with
 * `${__dirname}`, `${user_config.X}`, `${HOME}` and `${/}` substituted (MCPB
 * manifest spec), sensitive values apart for the keychain. Shared by
 * installing (installBundle.ts) and updating (updateBundle.ts).
 */
import { homedir } from 'node:os';
import { sep } from 'node:path';
import { ErrorCode, ErrorFix, SwitchboardError } from '../../../../shared/errors.js';
import type { InputValues } from '../entries/saveEntry.js';
import type { BundleManifest, UserConfigField } from './bundleManifest.js';

function invalid(field: string, message: string): never {
  throw new SwitchboardError(ErrorCode.BundleInvalid, `manifest.json: ${field}: ${message}; not installed`, { field });
}

/** Each user_config value: given, else its default; required ones must be there. */
export function userConfigValues(manifest: BundleManifest, values: InputValues): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [key, field] of Object.entries(manifest.user_config ?? {})) {
    const raw = values[`var:${key}`] ?? values[`arg:${key}`];
    const given = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    const fallback =
      field.default === undefined ? [] : Array.isArray(field.default) ? field.default : [String(field.default)];
    const chosen = given.length > 0 ? given : fallback;
    if (chosen.length === 0 && field.required) {
      throw new SwitchboardError(ErrorCode.InputInvalid, `user_config.${key} (${field.title}) is required`, {
        key: `var:${key}`,
        fix: ErrorFix.GiveValue,
      });
    }
    if (!field.multiple && chosen.length > 1) {
      throw new SwitchboardError(ErrorCode.InputInvalid, `user_config.${key} takes one value`, { key: `var:${key}` });
    }
    checkType(key, field, chosen);
    out.set(key, chosen);
  }
  return out;
}

function checkType(key: string, field: UserConfigField, values: string[]): void {
  for (const value of values) {
    if (field.type === 'number') {
      const n = Number(value);
      const bad =
        !Number.isFinite(n) || (field.min !== undefined && n < field.min) || (field.max !== undefined && n > field.max);
      if (bad) {
        throw new SwitchboardError(ErrorCode.InputInvalid, `user_config.${key} must be a number in range`, {
          key: `var:${key}`,
        });
      }
    }
    if (field.type === 'boolean' && value !== 'true' && value !== 'false') {
      throw new SwitchboardError(ErrorCode.InputInvalid, `user_config.${key} must be true or false`, {
        key: `var:${key}`,
      });
    }
  }
}

interface Substituted {
  words: string[];
  secret: boolean;
}

/** `${__dirname}`, `${HOME}`, `${/}`/`${pathSeparator}` and `${user_config.X}` in one value (MCPB manifest spec). */
function substitute(
  text: string,
  directory: string,
  config: Map<string, string[]>,
  manifest: BundleManifest,
): Substituted {
  const whole = /^\$\{user_config\.([A-Za-z0-9_-]+)\}$/.exec(text);
  if (whole && manifest.user_config?.[whole[1]!]?.multiple) {
    // A multiple value alone in an argument becomes one argument per value.
    return { words: config.get(whole[1]!) ?? [], secret: manifest.user_config[whole[1]!]!.sensitive === true };
  }
  let secret = false;
  const out = text.replace(/\$\{([^}]+)\}/g, (match, name: string) => {
    if (name === '__dirname') return directory;
    if (name === 'HOME') return homedir();
    if (name === '/' || name === 'pathSeparator') return sep;
    const key = /^user_config\.(.+)$/.exec(name)?.[1];
    if (key === undefined || !manifest.user_config?.[key]) return match;
    if (manifest.user_config[key].sensitive) secret = true;
    return (config.get(key) ?? []).join(',');
  });
  return { words: [out], secret };
}

/** The command line and env of a bundle unpacked in `directory`; sensitive env values apart. */
export function bundleCommand(
  manifest: BundleManifest,
  directory: string,
  config: Map<string, string[]>,
): {
  command: string;
  args: string[];
  env: Record<string, string>;
  sensitive: { field: 'env'; name: string; value: string }[];
} {
  const platform = manifest.server.mcp_config.platform_overrides?.[process.platform] ?? {};
  const mcp = { ...manifest.server.mcp_config, ...platform };
  const command = substitute(mcp.command, directory, config, manifest).words[0] ?? mcp.command;
  const args: string[] = [];
  for (const arg of mcp.args ?? []) {
    const result = substitute(arg, directory, config, manifest);
    if (result.secret)
      invalid(
        'server.mcp_config.args',
        'a sensitive user_config value cannot be kept out of config.json on a command line',
      );
    args.push(...result.words);
  }
  const env: Record<string, string> = {};
  const sensitive: { field: 'env'; name: string; value: string }[] = [];
  for (const [name, value] of Object.entries(mcp.env ?? {})) {
    const result = substitute(value, directory, config, manifest);
    const text = result.words.join(',');
    if (!result.secret) env[name] = text;
    else if (text !== '') sensitive.push({ field: 'env', name, value: text }); // an optional one not given: nothing
  }
  return { command, args, env, sensitive };
}

/** What a new bundle's sandbox grants: the `directory` values given it to write, the `file` values to read. */
export function bundleGrants(
  manifest: BundleManifest,
  config: Map<string, string[]>,
): { read: string[]; write: string[] } {
  const grants = { read: [] as string[], write: [] as string[] };
  for (const [key, field] of Object.entries(manifest.user_config ?? {})) {
    const values = (config.get(key) ?? []).map((value) => value.replace(/^\$\{HOME\}/, homedir()));
    if (field.type === 'directory') grants.write.push(...values);
    if (field.type === 'file') grants.read.push(...values);
  }
  return grants;
}

/** The non-sensitive user_config values given, by input key (`source.inputs`, for an update). */
export function plainUserConfig(manifest: BundleManifest, values: InputValues): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, field] of Object.entries(manifest.user_config ?? {})) {
    const value = values[`var:${key}`] ?? values[`arg:${key}`];
    if (!field.sensitive && value !== undefined) out[`var:${key}`] = value;
  }
  return out;
}
