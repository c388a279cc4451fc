/**
 * The packaging config (build/electron-builder.yml) cannot be run here (no
 * Electron binary), so it is checked against electron-builder's own JSON
 * schema, and what it points at must exist in a build.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/basics.js';

const require = createRequire(import.meta.url);

describe('build/electron-builder.yml', () => {
  it("is valid for electron-builder's schema and names icons and files that exist", async () => {
    const config = parse(await readFile(join(ROOT, 'build/electron-builder.yml'), 'utf8')) as Record<string, unknown>;
    const schemaPath = join(require.resolve('app-builder-lib/package.json'), '..', 'scheme.json');
    const schema = JSON.parse(await readFile(schemaPath, 'utf8')) as Record<string, unknown>;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    expect(validate(config), JSON.stringify(validate.errors, null, 2)).toBe(true);

    const platform = (name: string) => config[name] as { icon?: string };
    for (const icon of [platform('linux').icon, platform('mac').icon, platform('win').icon]) {
      expect(icon && existsSync(join(ROOT, icon)), String(icon)).toBe(true);
    }
    // The app's entry point is inside what gets packaged.
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { main: string };
    expect(config['files']).toContain(`${pkg.main.split('/').slice(0, 2).join('/')}/**`);
  });
});
