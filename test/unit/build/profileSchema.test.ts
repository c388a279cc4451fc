/**
 * The committed JSON Schema of profile files (docs/schemas/) is what the
 * generator makes from the zod schema: a field added to a profile (or to the
 * file) without `npm run schemas` fails here, so the schema never drifts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a build script in plain JavaScript, without types
import { PROFILE_SCHEMA_PATH, profileSchemaText } from '../../../build/profile-schema.mjs';

describe('docs/schemas/profile-file.v1.schema.json', () => {
  it('is what `npm run schemas` generates from the zod schema', async () => {
    const committed = readFileSync(PROFILE_SCHEMA_PATH as string, 'utf8');
    expect(committed, 'run `npm run schemas` and commit the result').toBe(
      await (profileSchemaText as () => Promise<string>)(),
    );
  });

  it('describes the profile, its server policies, the servers and the inputs', () => {
    const schema = JSON.parse(readFileSync(PROFILE_SCHEMA_PATH as string, 'utf8')) as {
      required: string[];
      properties: Record<string, { properties?: Record<string, unknown> }>;
    };
    expect(schema.required).toEqual(expect.arrayContaining(['formatVersion', 'profile']));
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['formatVersion', 'profile', 'backendPolicies', 'servers', 'inputs']),
    );
    expect(Object.keys(schema.properties['profile']?.properties ?? {})).toEqual(
      expect.arrayContaining(['id', 'name', 'backends', 'items', 'exposure', 'maxTools']),
    );
  });
});
