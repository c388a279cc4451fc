import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateServerJson } from '../../../../../electron/core/install/registry/validate.js';

const examples = join(import.meta.dirname, '../../../../fixtures/registry/examples');
const read = (dir: string, file: string): unknown => JSON.parse(readFileSync(join(examples, dir, file), 'utf8'));

describe('server.json validation against the official schema', () => {
  for (const dir of ['valid', 'docs']) {
    for (const file of readdirSync(join(examples, dir))) {
      it(`accepts the registry's example ${dir}/${file}`, () => {
        const result = validateServerJson(read(dir, file));
        expect(result.ok ? 'valid' : result.reason).toBe('valid');
      });
    }
  }

  it.each([
    ['bad-name-pattern.json', /^name: must match pattern/],
    ['package-version-latest.json', /^packages\.0\.version: must NOT be valid/],
    ['positional-argument-missing-value.json', /^packages\.0\.packageArguments\.0: must have required property/],
  ])("refuses the registry's invalid example %s, naming the field", (file, reason) => {
    const result = validateServerJson(read('invalid', file));
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toMatch(reason);
  });

  it('refuses a description over the 100-character limit and an unknown package type', () => {
    const long = validateServerJson({ name: 'io.github.a/b', description: 'x'.repeat(101), version: '1.0.0' });
    expect(long.ok ? '' : long.reason).toMatch(/^description: must NOT have more than 100 characters/);
    const kind = validateServerJson({
      name: 'io.github.a/b',
      description: 'd',
      version: '1.0.0',
      packages: [{ registryType: 'cargo', identifier: 'x', version: '1', transport: { type: 'stdio' } }],
    });
    expect(kind.ok).toBe(false);
  });
});
