/**
 * From a server.json entry to a Switchboard backend entry (an `mcpServers`
 * value): packages become stdio command lines (npm: `npx -y <id>@<version>`,
 * pypi: `uvx <id>==<version>`, nuget: `dnx <id>@<version> --yes`, oci:
 * `docker run -i --rm ... <image>` with each env var passed as `-e NAME`),
 * remotes become http/sse URLs with their headers. A package that serves
 * streamable-http or sse becomes a remote entry whose `launch` runs its
 * command line (the URL template filled from its arguments and env). `runtimeHint`,
 * `runtimeArguments`, `packageArguments` (positional and named, fixed values,
 * defaults, choices, repeated values, `{variables}`), `environmentVariables`
 * and headers are honoured. Secret values are returned apart, for the keychain.
 */
import { remoteTransportNamed } from '../../../../shared/model/transports.js';
import {
  argumentFields,
  argumentKey,
  variableField,
  InputError,
  keyValueFields,
  orderFields,
  resolveField,
  substitute,
  type InputField,
} from './inputs.js';
import type { InputValues } from '../entries/saveEntry.js';
import type { KeyValueInput, ServerArgument, ServerJson, ServerPackage, ServerTransport } from './registryTypes.js';

/** Which way of running an entry: one of its packages or one of its remotes. */
export type Choice = { package: number } | { remote: number };

/** One way of running an entry, as offered to the user. */
export interface Option {
  choice: Choice;
  /** `npm`, `pypi`, `nuget`, `oci`, `mcpb`, `streamable-http`, `sse`. */
  kind: string;
  /** e.g. `npx -y @scope/pkg@1.0.0` or the remote URL template. */
  label: string;
  /** The command that must be on PATH (stdio packages). */
  runtime?: string;
  fields: InputField[];
  /** Why Switchboard cannot run it (then it is listed, not installable). */
  unsupported?: string;
}

/** A value that must go to the keychain rather than config.json. */
export interface SecretValue {
  field: 'env' | 'headers';
  name: string;
  value: string;
}

/** The backend entry built from an entry and the user's values. */
export interface BuiltEntry {
  /** The `mcpServers` entry; secret values are absent from it (see `secrets`). */
  entry: Record<string, unknown>;
  secrets: SecretValue[];
  runtime?: string;
}

const DEFAULT_RUNTIME: Record<string, string> = { npm: 'npx', pypi: 'uvx', nuget: 'dnx', oci: 'docker' };

function packageFields(pkg: ServerPackage): InputField[] {
  return orderFields([
    ...argumentFields(pkg.runtimeArguments),
    ...argumentFields(pkg.packageArguments),
    ...keyValueFields('env', pkg.environmentVariables),
  ]);
}

function remoteFields(remote: ServerTransport): InputField[] {
  // A URL variable without a default must be given: the URL cannot keep its {braces}.
  const variables = Object.entries(remote.variables ?? {}).map(([name, input]) =>
    variableField(name, { ...input, isRequired: input.isRequired ?? input.default === undefined }),
  );
  return orderFields([...variables, ...keyValueFields('header', remote.headers)]);
}

/** Every way of running an entry, remotes first (nothing to install), then packages in their order. */
export function optionsOf(server: ServerJson): Option[] {
  const remotes: Option[] = (server.remotes ?? []).map((remote, i) => ({
    choice: { remote: i },
    kind: remote.type,
    label: remote.url,
    fields: remoteFields(remote),
  }));
  const packages: Option[] = (server.packages ?? []).map((pkg, i) => {
    const runtime = pkg.runtimeHint ?? DEFAULT_RUNTIME[pkg.registryType];
    const option: Option = {
      choice: { package: i },
      kind: pkg.registryType,
      label: `${runtime ?? pkg.registryType} ${pkg.identifier}${pkg.version ? `@${pkg.version}` : ''}`,
      fields: packageFields(pkg),
      ...(runtime ? { runtime } : {}),
    };
    if (pkg.registryType === 'mcpb') option.label = `bundle ${pkg.identifier}`;
    else if (pkg.transport.type !== 'stdio') {
      if (pkg.transport.url) option.label += `, serving ${pkg.transport.type} at ${pkg.transport.url}`;
      else option.unsupported = `a package serving ${pkg.transport.type} without a transport URL cannot be reached`;
    }
    return option;
  });
  return [...remotes, ...packages];
}

/** The values of one argument as command-line words. */
function argumentWords(argument: ServerArgument, values: InputValues): string[] {
  const label =
    argument.type === 'named' ? `argument ${argument.name}` : `argument ${argument.valueHint ?? '(positional)'}`;
  let parts: string[];
  if (argument.value !== undefined) {
    const { text, secret } = substitute(argument.value, argument.variables, values, label);
    if (secret)
      throw new InputError(
        argumentKey(argument),
        `${label} holds a secret, which cannot be kept out of config.json on a command line`,
      );
    parts = [text];
  } else {
    if (argument.isSecret)
      throw new InputError(
        argumentKey(argument),
        `${label} is secret, which cannot be kept out of config.json on a command line`,
      );
    parts = resolveField(argument, argumentKey(argument), label, values);
    if (!argument.isRepeated && parts.length > 1)
      throw new InputError(argumentKey(argument), `${label} takes one value`);
  }
  if (argument.type === 'named') return parts.flatMap((value) => [argument.name ?? '', value]);
  return parts;
}

function argumentsOf(args: ServerArgument[] | undefined, values: InputValues): string[] {
  return (args ?? []).flatMap((argument) => argumentWords(argument, values));
}

/** Env vars or headers: plain values and secret ones apart; an optional one without a value is left out. */
function keyValues(
  inputs: KeyValueInput[] | undefined,
  kind: 'env' | 'header',
  values: InputValues,
): { plain: Record<string, string>; secret: Record<string, string> } {
  const plain: Record<string, string> = {};
  const secret: Record<string, string> = {};
  for (const input of inputs ?? []) {
    const label = kind === 'env' ? `environment variable ${input.name}` : `header ${input.name}`;
    let value: string | undefined;
    let isSecret = input.isSecret === true;
    if (input.value !== undefined) {
      const result = substitute(input.value, input.variables, values, label);
      value = result.text;
      isSecret ||= result.secret;
    } else {
      value = resolveField(input, `${kind}:${input.name}`, label, values)[0];
    }
    if (value === undefined) continue;
    (isSecret ? secret : plain)[input.name] = value;
  }
  return { plain, secret };
}

function withVersion(pkg: ServerPackage, separator: string): string {
  return pkg.version ? `${pkg.identifier}${separator}${pkg.version}` : pkg.identifier;
}

/** An OCI reference that already names a tag or digest (`image:tag`, `image@sha256:...`). */
function hasTag(image: string): boolean {
  return image.includes('@') || /:[^/]+$/.test(image);
}

function packageCommand(
  pkg: ServerPackage,
  values: InputValues,
  envNames: string[],
): { command: string; args: string[] } {
  const runtimeArgs = argumentsOf(pkg.runtimeArguments, values);
  const packageArgs = argumentsOf(pkg.packageArguments, values);
  const command = pkg.runtimeHint ?? DEFAULT_RUNTIME[pkg.registryType] ?? pkg.registryType;
  switch (pkg.registryType) {
    case 'npm': {
      // -y: npx must not stop to ask before installing (there is no terminal to answer on).
      const yes = runtimeArgs.some((a) => a === '-y' || a === '--yes') || command !== 'npx' ? [] : ['-y'];
      return { command, args: [...runtimeArgs, ...yes, withVersion(pkg, '@'), ...packageArgs] };
    }
    case 'pypi':
      return { command, args: [...runtimeArgs, withVersion(pkg, '=='), ...packageArgs] };
    case 'nuget':
      // dnx takes the tool's own arguments after `--` (generic-server-json.md).
      return {
        command,
        args: [
          ...runtimeArgs,
          withVersion(pkg, '@'),
          '--yes',
          ...(packageArgs.length > 0 ? ['--', ...packageArgs] : []),
        ],
      };
    case 'oci': {
      const image = pkg.version && !hasTag(pkg.identifier) ? `${pkg.identifier}:${pkg.version}` : pkg.identifier;
      // The container sees only what is passed: each env var by name (its value comes from the backend's env).
      const env = envNames.flatMap((name) => ['-e', name]);
      return { command, args: ['run', '-i', '--rm', ...runtimeArgs, ...env, image, ...packageArgs] };
    }
    default:
      throw new InputError('package', `${pkg.registryType} packages cannot be run from a command line`);
  }
}

/**
 * A package's transport URL with its `{variables}` filled: each names an
 * argument (its valueHint or name) or an environment variable (server.json
 * `transport.url`).
 */
function packageUrl(pkg: ServerPackage, values: InputValues, env: Record<string, string>): string {
  const known = new Map<string, string>(Object.entries(env));
  for (const argument of [...(pkg.runtimeArguments ?? []), ...(pkg.packageArguments ?? [])]) {
    const words = argumentWords(argument, values);
    const value = argument.type === 'named' ? words[1] : words[0];
    if (value === undefined) continue;
    if (argument.valueHint) known.set(argument.valueHint, value);
    if (argument.name) known.set(argument.name, value);
  }
  const template = pkg.transport.url ?? '';
  return template.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = known.get(name);
    if (value === undefined) {
      throw new InputError('transport.url', `the URL ${template} names {${name}}, which no argument or variable gives`);
    }
    return value;
  });
}

/** Where a secret of `field` goes in `entry` (a launched server's env is under `launch`). */
export function secretTarget(entry: Record<string, unknown>, field: SecretValue['field']): Record<string, unknown> {
  const holder = (field === 'env' && entry['launch'] ? entry['launch'] : entry) as Record<string, unknown>;
  holder[field] ??= {};
  return holder[field] as Record<string, unknown>;
}

/**
 * The paths given for a package's `filepath` inputs (given, else their
 * defaults): what a new server's sandbox lets it write (a filesystem server's roots).
 */
export function filepathValues(server: ServerJson, choice: Choice, values: InputValues): string[] {
  const pkg = 'package' in choice ? server.packages?.[choice.package] : undefined;
  if (!pkg) return [];
  return packageFields(pkg)
    .filter((field) => field.format === 'filepath')
    .flatMap((field) => {
      const raw = values[field.key];
      const given = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
      return given.length > 0 ? given : field.default !== undefined ? [field.default] : [];
    });
}

/** Builds the backend entry for one option of an entry with the user's values. Throws {@link InputError}. */
export function buildEntry(server: ServerJson, choice: Choice, values: InputValues): BuiltEntry {
  if ('remote' in choice) {
    const remote = server.remotes?.[choice.remote];
    if (!remote) throw new InputError('remote', `${server.name} has no remote #${choice.remote}`);
    const variables = Object.fromEntries(
      Object.entries(remote.variables ?? {}).map(([name, v]) => [
        name,
        { ...v, isRequired: v.isRequired ?? v.default === undefined },
      ]),
    );
    const url = substitute(remote.url, variables, values, 'URL').text;
    const headers = keyValues(remote.headers, 'header', values);
    const entry: Record<string, unknown> = { url, type: remoteTransportNamed(remote.type) };
    if (Object.keys(headers.plain).length > 0) entry['headers'] = headers.plain;
    return {
      entry,
      secrets: Object.entries(headers.secret).map(([name, value]) => ({ field: 'headers', name, value })),
    };
  }
  const pkg = server.packages?.[choice.package];
  if (!pkg) throw new InputError('package', `${server.name} has no package #${choice.package}`);
  const option = optionsOf(server).find((o) => 'package' in o.choice && o.choice.package === choice.package);
  if (option?.unsupported) throw new InputError('package', `${server.name}: ${option.unsupported}`);
  const env = keyValues(pkg.environmentVariables, 'env', values);
  const names = [...Object.keys(env.plain), ...Object.keys(env.secret)];
  const { command, args } = packageCommand(pkg, values, names);
  let entry: Record<string, unknown> = { command, args };
  if (Object.keys(env.plain).length > 0) entry['env'] = env.plain;
  if (pkg.transport.type !== 'stdio') {
    // Run it, and reach it over HTTP (platform/config/schema.ts `launch`).
    entry = { url: packageUrl(pkg, values, env.plain), type: remoteTransportNamed(pkg.transport.type), launch: entry };
  }
  return {
    entry,
    secrets: Object.entries(env.secret).map(([name, value]) => ({ field: 'env', name, value })),
    runtime: command,
  };
}
