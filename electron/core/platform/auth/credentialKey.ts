/**
 * The operator's key for per-caller upstream tokens at rest: 32 bytes, from
 * the environment (`SWITCHBOARD_TOKEN_KEY`) or a mounted secret file
 * (`proxy.credentialKeyFile`), written as base64, base64url or hex. Never the
 * OS keychain: a gateway runs where there is none, and the operator decides
 * where the key lives. A missing or malformed key is a problem that names
 * where a key is looked for; the key itself is never part of a message.
 */
import { readFile } from 'node:fs/promises';

/** The environment variable that holds the key (it wins over the config's file). */
export const TOKEN_KEY_VARIABLE = 'SWITCHBOARD_TOKEN_KEY';

/** A usable key, or why there is none. */
export type CredentialKey = { key: Uint8Array; problem?: undefined } | { key?: undefined; problem: string };

/** The 32 bytes a key's text stands for, or undefined when it stands for none. */
export function decodeKey(text: string): Uint8Array | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Uint8Array.from(Buffer.from(trimmed, 'hex'));
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed, 'base64');
  return bytes.length === 32 ? Uint8Array.from(bytes) : undefined;
}

const MALFORMED = 'must be 32 bytes written as base64 or hex (e.g. `openssl rand -base64 32`)';

/** Reads the key: the environment first, then the config's file. */
export async function loadCredentialKey(
  environment: NodeJS.ProcessEnv,
  keyFile: string | undefined,
): Promise<CredentialKey> {
  const fromEnv = environment[TOKEN_KEY_VARIABLE];
  if (fromEnv !== undefined && fromEnv !== '') {
    const key = decodeKey(fromEnv);
    return key ? { key } : { problem: `${TOKEN_KEY_VARIABLE} ${MALFORMED}` };
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
  const key = decodeKey(text);
  return key ? { key } : { problem: `proxy.credentialKeyFile: ${keyFile} ${MALFORMED}` };
}
