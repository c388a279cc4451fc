/**
 * `${principal.id}`: who a per-principal stdio server's process is for, as its
 * args, env values and cwd may name it (`instances: "per-principal"`), so each
 * person's state is kept apart on disk. The id is a filesystem-safe hash of
 * the person's issuer and subject (never a token, never the raw subject), the
 * same for one person across servers and restarts; the process of the local
 * user (laptop mode, the main token, and the instance that lists the catalog)
 * gets `local`. Only this exact spelling is replaced, and only for
 * per-principal servers (a shared server that names it is a config error).
 */
import { createHash } from 'node:crypto';
import type { ConfigValue } from '../secrets/secretStore.js';

/** The reference, exactly as written in args, env values and cwd. */
export const PRINCIPAL_ID_REFERENCE = '${principal.id}';

/** The prefix of a signed-in person's caller key (catalog/policy/callerIdentity.ts callerKey). */
export const PRINCIPAL_KEY_PREFIX = 'principal:';

/** The id of the local user's instance. */
export const LOCAL_PRINCIPAL_ID = 'local';

/** Whether a caller key names a signed-in person (gateway mode), not a client profile. */
export function isPrincipalKey(callerKey: string): boolean {
  return callerKey.startsWith(PRINCIPAL_KEY_PREFIX);
}

/** The `${principal.id}` of a caller key: a 32-hex-digit hash for a person, `local` otherwise. */
export function principalIdOf(callerKey: string): string {
  if (!isPrincipalKey(callerKey)) return LOCAL_PRINCIPAL_ID;
  const person = callerKey.slice(PRINCIPAL_KEY_PREFIX.length);
  return createHash('sha256').update(`mcp-switchboard principal\0${person}`).digest('hex').slice(0, 32);
}

/** What of a stdio entry may name the principal. */
export interface PrincipalFields {
  args: string[];
  env: Record<string, ConfigValue>;
  cwd?: string | undefined;
}

/** Any `${principal.…}` reference (only `.id` is known). */
const ANY_PRINCIPAL_REFERENCE = /\$\{principal\.[^}]*\}/g;

/** Every string field of the entry that may name the principal, by its path (`args.1`, `env.X`, `cwd`). */
function namingFields(entry: PrincipalFields): [string, string][] {
  const fields: [string, string][] = entry.args.map((arg, index) => [`args.${index}`, arg]);
  for (const [key, value] of Object.entries(entry.env))
    if (typeof value === 'string') fields.push([`env.${key}`, value]);
  if (entry.cwd !== undefined) fields.push(['cwd', entry.cwd]);
  return fields;
}

/**
 * What is wrong with the entry's `${principal.…}` references: any but `${principal.id}`, and
 * `${principal.id}` itself unless the server is per-principal (a shared process is nobody's).
 */
export function principalReferenceProblems(
  entry: PrincipalFields,
  perPrincipal: boolean,
): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  for (const [field, value] of namingFields(entry)) {
    const references = [...value.matchAll(ANY_PRINCIPAL_REFERENCE)].map(([reference]) => reference);
    const unknown = references.filter((reference) => reference !== PRINCIPAL_ID_REFERENCE);
    if (unknown.length > 0) {
      problems.push({ field, message: `unknown reference ${unknown[0]}: only ${PRINCIPAL_ID_REFERENCE} is expanded` });
    } else if (references.length > 0 && !perPrincipal) {
      problems.push({
        field,
        message: `${PRINCIPAL_ID_REFERENCE} is only expanded for a server with instances: "per-principal"`,
      });
    }
  }
  return problems;
}

/** The entry with every `${principal.id}` replaced by `id` (secret references are left as they are). */
export function withPrincipalId<T extends PrincipalFields>(entry: T, id: string): T {
  const put = (value: string): string => value.replaceAll(PRINCIPAL_ID_REFERENCE, id);
  const env: Record<string, ConfigValue> = {};
  for (const [key, value] of Object.entries(entry.env)) env[key] = typeof value === 'string' ? put(value) : value;
  return { ...entry, args: entry.args.map(put), env, cwd: entry.cwd === undefined ? undefined : put(entry.cwd) };
}
