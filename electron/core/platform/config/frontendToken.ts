/**
 * The frontend bearer token when `SWITCHBOARD_TOKEN` is not set: generated
 * once and kept in a file readable only by the user (never in config.json),
 * so clients configured with it keep working across restarts.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { generateToken } from '../secrets/randomToken.js';

/** The file that keeps the token, in Switchboard's config directory. */
export function frontendTokenPath(configDir: string): string {
  return join(configDir, 'frontend-token');
}

/** Where the token came from. */
export type TokenSource = 'environment' | 'file' | 'generated';

/** Returns the token to require, creating and saving one if needed. */
export async function resolveFrontendToken(
  file: string,
  environment: NodeJS.ProcessEnv,
): Promise<{ token: string; source: TokenSource }> {
  const fromEnvironment = environment['SWITCHBOARD_TOKEN'];
  if (fromEnvironment) return { token: fromEnvironment, source: 'environment' };
  try {
    const saved = (await readFile(file, 'utf8')).trim();
    if (saved) return { token: saved, source: 'file' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const token = generateToken();
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return { token, source: 'generated' };
}
