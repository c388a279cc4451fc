/**
 * The operator's key for per-caller upstream tokens at rest: 32 bytes, from
 * the environment (`SWITCHBOARD_TOKEN_KEY`) or a mounted secret file
 * (`proxy.credentialKeyFile`), written as base64, base64url or hex. Never the
 * OS keychain: a gateway runs where there is none, and the operator decides
 * where the key lives. A missing or malformed key is a problem that names
 * where a key is looked for; the key itself is never part of a message.
 *
 * Rotation: the variable or the file may hold several keys, separated by
 * whitespace or commas. The first is the key in use (every record written is
 * sealed with it); the others are kept for reading records sealed before the
 * rotation, each re-sealed under the key in use when it is read
 * (callerTokenStore.ts), so nobody signs in again and the old key can be
 * dropped once no record needs it.
 */
import { readFile } from 'node:fs/promises';

/** The environment variable that holds the key (it wins over the config's file). */
export const TOKEN_KEY_VARIABLE = 'SWITCHBOARD_TOKEN_KEY';

/** A usable key (and the previous ones, kept for reading), or why there is none. */
export type CredentialKey =
  | { key: Uint8Array; previous: Uint8Array[]; problem?: undefined }
  | { key?: undefined; previous?: undefined; problem: string };

/** The 32 bytes a key's text stands for, or undefined when it stands for none. */
export function decodeKey(text: string): Uint8Array | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Uint8Array.from(Buffer.from(trimmed, 'hex'));
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed, 'base64');
  return bytes.length === 32 ? Uint8Array.from(bytes) : undefined;
}

const MALFORMED =
  'must be 32 bytes written as base64 or hex (e.g. `openssl rand -base64 32`); during a rotation, the new key first, then the old ones, separated by spaces, commas or lines';

/** The keys a text holds (the first in use), or undefined when any of them is malformed (or none is there). */
function decodeKeys(text: string): CredentialKey | undefined {
  const keys = text
    .split(/[\s,]+/)
    .filter((part) => part !== '')
    .map(decodeKey);
  const [key, ...previous] = keys;
  if (!key || previous.some((other) => other === undefined)) return undefined;
  return { key, previous: previous as Uint8Array[] };
}

/** Reads the key: the environment first, then the config's file. */
export async function loadCredentialKey(
  environment: NodeJS.ProcessEnv,
  keyFile: string | undefined,
): Promise<CredentialKey> {
  const fromEnv = environment[TOKEN_KEY_VARIABLE];
  if (fromEnv !== undefined && fromEnv !== '') {
    return decodeKeys(fromEnv) ?? { problem: `${TOKEN_KEY_VARIABLE} ${MALFORMED}` };
  }
  if (keyFile === undefined) {
    return {
      problem: `per-caller credentials need a key to encrypt them: set ${TOKEN_KEY_VARIABLE} or proxy.credentialKeyFile`,
    };
  }
  let text: string;
  try {
    text = await readFile(keyFile, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    return { problem: `proxy.credentialKeyFile: cannot read ${keyFile} (${reason})` };
  }
  return decodeKeys(text) ?? { problem: `proxy.credentialKeyFile: ${keyFile} ${MALFORMED}` };
}
