// Writes docs/schemas/profile-file.v1.schema.json: the JSON Schema of profile files, generated
// from their zod schema (electron/core/install/profileFiles/profileFileSchema.ts), formatted as
// prettier formats the repository. test/unit/docs/profileSchema.test.ts fails when the committed
// file differs from what this makes. Run: npm run schemas
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { profileFileJsonSchema } from '../electron/core/install/profileFiles/profileFileSchema.ts';

/** Where the committed schema lives. */
export const PROFILE_SCHEMA_PATH = fileURLToPath(
  new URL('../docs/schemas/profile-file.v1.schema.json', import.meta.url),
);

/** The schema's text, as committed. */
export async function profileSchemaText() {
  const options = (await prettier.resolveConfig(PROFILE_SCHEMA_PATH)) ?? {};
  return prettier.format(JSON.stringify(profileFileJsonSchema()), { ...options, parser: 'json' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(PROFILE_SCHEMA_PATH, await profileSchemaText());
  process.stdout.write(`wrote ${PROFILE_SCHEMA_PATH}\n`);
}
