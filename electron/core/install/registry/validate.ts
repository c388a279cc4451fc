/**
 * Validation of server.json documents against the official JSON Schema (ajv,
 * compiled once). A registry answer is untrusted input: an entry that does not
 * validate is listed as invalid, with the reason, and never installed.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { schemaAjv } from '../entries/schemaAjv.js';
import { SERVER_SCHEMA } from './serverSchema.js';
import type { ServerJson } from './registryTypes.js';

interface Validators {
  document: ValidateFunction;
  definition(name: string): ValidateFunction;
}

let compiled: Validators | undefined;

function validators(): Validators {
  if (!compiled) {
    const ajv = schemaAjv();
    const document = ajv.compile(SERVER_SCHEMA);
    compiled = {
      document,
      definition: (name) => ajv.getSchema(`${SERVER_SCHEMA.$id}#/definitions/${name}`)!,
    };
  }
  return compiled;
}

/** The outcome of validating one document. */
export type Validation = { ok: true; server: ServerJson } | { ok: false; reason: string };

function message(prefix: string, error: ErrorObject): string {
  const path = [prefix, ...error.instancePath.split('/').slice(1)].filter((p) => p !== '').join('.') || '(root)';
  const params = error.params as { missingProperty?: string; allowedValues?: unknown[] };
  const extra =
    error.keyword === 'required'
      ? ` (${params.missingProperty})`
      : error.keyword === 'enum'
        ? ` (${(params.allowedValues ?? []).join(', ')})`
        : '';
  return `${path}: ${error.message ?? 'is invalid'}${extra}`;
}

/** The first error of `value` against one definition, or undefined. */
function check(definition: string, value: unknown, prefix: string): string | undefined {
  const validate = validators().definition(definition);
  if (validate(value)) return undefined;
  const errors = (validate.errors ?? []).filter((e) => !['anyOf', 'oneOf', 'allOf'].includes(e.keyword));
  const first = errors[0] ?? validate.errors?.[0];
  return first ? message(prefix, first) : `${prefix}: is invalid`;
}

const PACKAGE_BRANCH: Record<string, string> = {
  npm: 'RegistryPackage',
  pypi: 'RegistryPackage',
  nuget: 'RegistryPackage',
  oci: 'ImagePackage',
  mcpb: 'BinaryPackage',
};
const TRANSPORT_BRANCH: Record<string, string> = {
  stdio: 'StdioTransport',
  'streamable-http': 'StreamableHttpTransport',
  sse: 'SseTransport',
};
const ARGUMENT_BRANCH: Record<string, string> = { positional: 'PositionalArgument', named: 'NamedArgument' };

type Branch = { name: string; reason?: undefined } | { name?: undefined; reason: string };

function branch(map: Record<string, string>, key: unknown, field: string, prefix: string): Branch {
  const name = typeof key === 'string' ? map[key] : undefined;
  return name
    ? { name }
    : { reason: `${prefix}.${field}: must be one of ${Object.keys(map).join(', ')}, not ${JSON.stringify(key)}` };
}

/**
 * Why a document fails: each union of the schema (package kinds, transports,
 * argument kinds) is checked against the branch its discriminator names, so
 * the reason names the real field rather than every branch that did not fit.
 */
function explain(document: Record<string, unknown>): string {
  const { packages, remotes, ...rest } = document;
  const top = check('ServerDetail', rest, '');
  if (top) return top;
  for (const [i, remote] of (Array.isArray(remotes) ? remotes : []).entries()) {
    const prefix = `remotes.${i}`;
    const picked = branch(TRANSPORT_BRANCH, (remote as { type?: unknown })?.type, 'type', prefix);
    if (picked.name === undefined) return picked.reason;
    const reason = check(picked.name, remote, prefix);
    if (reason) return reason;
  }
  for (const [i, item] of (Array.isArray(packages) ? packages : []).entries()) {
    const prefix = `packages.${i}`;
    const pkg = (item ?? {}) as Record<string, unknown>;
    for (const field of ['runtimeArguments', 'packageArguments']) {
      for (const [j, argument] of (Array.isArray(pkg[field]) ? (pkg[field] as unknown[]) : []).entries()) {
        const at = `${prefix}.${field}.${j}`;
        const picked = branch(ARGUMENT_BRANCH, (argument as { type?: unknown })?.type, 'type', at);
        if (picked.name === undefined) return picked.reason;
        const reason = check(picked.name, argument, at);
        if (reason) return reason;
      }
    }
    const transport = branch(
      TRANSPORT_BRANCH,
      (pkg['transport'] as { type?: unknown })?.type,
      'transport.type',
      prefix,
    );
    if (pkg['transport'] !== undefined) {
      if (transport.name === undefined) return transport.reason;
      const reason = check(transport.name, pkg['transport'], `${prefix}.transport`);
      if (reason) return reason;
    }
    const picked = branch(PACKAGE_BRANCH, pkg['registryType'], 'registryType', prefix);
    if (picked.name === undefined) return picked.reason;
    const { runtimeArguments: _r, packageArguments: _p, transport: _t, ...plain } = pkg;
    const reason = check(picked.name, { ...plain, transport: { type: 'stdio' } }, prefix);
    if (reason) return reason;
    if (pkg['transport'] === undefined) return `${prefix}: must have required property 'transport'`;
  }
  return '(root): does not match the server.json schema';
}

/** Validates a server.json document against the official schema. */
export function validateServerJson(document: unknown): Validation {
  if (validators().document(document)) return { ok: true, server: document as ServerJson };
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return { ok: false, reason: '(root): must be an object' };
  }
  return { ok: false, reason: explain(document as Record<string, unknown>) };
}
