/**
 * A .mcpb (formerly .dxt) bundle's manifest.json, validated with ajv against
 * the manifest JSON Schema of its `manifest_version` (or old `dxt_version`)
 * as published in @anthropic-ai/mcpb (the MCPB reference implementation).
 * An invalid manifest is refused with the field named.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { schemaAjv } from '../entries/schemaAjv.js';

/** The manifest fields Switchboard reads. */
export interface BundleManifest {
  manifest_version?: string;
  dxt_version?: string;
  name: string;
  display_name?: string;
  version: string;
  description: string;
  author: { name: string; email?: string; url?: string };
  server: {
    type: 'node' | 'python' | 'binary' | 'uv';
    entry_point: string;
    mcp_config: McpConfig & { platform_overrides?: Record<string, Partial<McpConfig>> };
  };
  tools?: { name: string; description?: string }[];
  user_config?: Record<string, UserConfigField>;
}

/** How to start the bundle's server. */
export interface McpConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

/** One value the bundle asks the user for. */
export interface UserConfigField {
  type: 'string' | 'number' | 'boolean' | 'directory' | 'file';
  title: string;
  description: string;
  required?: boolean;
  default?: string | number | boolean | string[];
  multiple?: boolean;
  sensitive?: boolean;
  min?: number;
  max?: number;
}

const SCHEMA_VERSIONS = ['0.1', '0.2', '0.3', '0.4'];
const require = createRequire(import.meta.url);
const validators = new Map<string, ValidateFunction>();

function validatorFor(version: string): ValidateFunction {
  let validate = validators.get(version);
  if (!validate) {
    const file = require.resolve(`@anthropic-ai/mcpb/mcpb-manifest-v${version}.schema.json`);
    const schema = JSON.parse(readFileSync(file, 'utf8')) as object;
    validate = schemaAjv().compile(schema);
    validators.set(version, validate);
  }
  return validate;
}

function describe(error: ErrorObject): { field: string; message: string } {
  const params = error.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
  const parts = error.instancePath.split('/').slice(1);
  if (params.missingProperty) parts.push(params.missingProperty);
  if (params.additionalProperty) parts.push(params.additionalProperty);
  const field = parts.join('.') || '(root)';
  const message =
    error.keyword === 'required'
      ? 'is required'
      : error.keyword === 'additionalProperties'
        ? 'is not a manifest field'
        : error.keyword === 'enum'
          ? `must be one of ${(params.allowedValues ?? []).join(', ')}`
          : (error.message ?? 'is invalid');
  return { field, message };
}

/** Validates a parsed manifest.json; the failure names the field. */
export function validateManifest(
  manifest: unknown,
): { ok: true; manifest: BundleManifest } | { ok: false; field: string; message: string } {
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    return { ok: false, field: '(root)', message: 'manifest.json must be a JSON object' };
  }
  const record = manifest as Record<string, unknown>;
  const declared = record['manifest_version'] ?? record['dxt_version'];
  if (declared !== undefined && (typeof declared !== 'string' || !SCHEMA_VERSIONS.includes(declared))) {
    return {
      ok: false,
      field: record['manifest_version'] !== undefined ? 'manifest_version' : 'dxt_version',
      message: `must be one of ${SCHEMA_VERSIONS.join(', ')}`,
    };
  }
  const validate = validatorFor(typeof declared === 'string' ? declared : SCHEMA_VERSIONS.at(-1)!);
  if (validate(manifest)) return { ok: true, manifest: manifest as BundleManifest };
  // The most specific error: the deepest field.
  const errors = (validate.errors ?? []).filter((e) => !['anyOf', 'oneOf', 'if'].includes(e.keyword));
  const pick = errors.reduce<ErrorObject | undefined>(
    (a, b) => (!a || b.instancePath.length > a.instancePath.length ? b : a),
    undefined,
  );
  return { ok: false, ...(pick ? describe(pick) : { field: '(root)', message: 'does not match the manifest schema' }) };
}
