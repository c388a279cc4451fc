/**
 * One ajv setup for the published JSON Schemas we validate against: the MCP
 * Registry's server.json (registry/validate.ts) and the .mcpb manifest
 * (bundles/bundleManifest.ts). ajv and ajv-formats load on first use, not at
 * start.
 */
import type { Ajv } from 'ajv';
import { lazyRequire } from '../../platform/env/lazyRequire.js';

const ajvModule = lazyRequire<{ Ajv: typeof Ajv }>('ajv');
// ajv-formats is CommonJS: its `module.exports` is the function, with itself as `default`.
const addFormats = lazyRequire<(ajv: Ajv) => Ajv>('ajv-formats');

/** An ajv for the published schemas: every error, formats checked, OpenAPI's extra keywords (example, discriminator) let through. */
export function schemaAjv(): Ajv {
  const ajv = new (ajvModule().Ajv)({ allErrors: true, strict: false });
  addFormats()(ajv);
  return ajv;
}
