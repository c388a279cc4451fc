/**
 * `profile export`: one client profile of the config as a profile file
 * (profileFileSchema.ts): the profile's own fields, the policies of the
 * servers it uses, and with `servers` those servers' entries with every
 * secret replaced by a named input (serverInputs.ts). Reads only; the result
 * is checked against the file's schema before it is handed out.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { LOCAL_CLIENT } from '../../platform/config/policyConfig.js';
import type { StoredConfig } from '../../platform/config/storedConfig.js';
import {
  PROFILE_FILE_SCHEMA_ID,
  PROFILE_FORMAT_VERSION,
  ProfileFileSchema,
  type ProfileFile,
  type ProfileFileInput,
} from './profileFileSchema.js';
import { entryToInputs } from './serverInputs.js';

/** Options of {@link exportProfile}. */
export interface ExportOptions {
  /** Also write the servers the profile uses (`--servers`). */
  servers?: boolean;
  /** The time written as `exportedAt` (default now). */
  now?: Date;
}

/** The servers a profile uses: its `backends` list, or every server when it has none. */
export function serversOfProfile(stored: StoredConfig, backends: readonly string[] | undefined): string[] {
  const known = stored.config.backends.map((backend) => backend.id);
  return backends === undefined ? known : backends.filter((id) => known.includes(id));
}

/** The profile file of profile `id`; `unknown_client` when the config has no such profile. */
export function exportProfile(stored: StoredConfig, id: string, options: ExportOptions = {}): ProfileFile {
  const profile = stored.config.policy.clients[id];
  if (id === LOCAL_CLIENT || !profile) {
    const known = Object.keys(stored.config.policy.clients).join(', ') || 'none';
    throw new SwitchboardError(ErrorCode.UnknownClient, `no client profile "${id}" (profiles: ${known})`, {
      client: id,
    });
  }
  const used = serversOfProfile(stored, profile.backends);
  const backendPolicies = Object.fromEntries(
    used.flatMap((server) => {
      const policy = stored.config.policy.backends[server];
      return policy ? [[server, structuredClone(policy)]] : [];
    }),
  );
  const inputs: Record<string, ProfileFileInput> = {};
  const servers: Record<string, Record<string, unknown>> = {};
  if (options.servers) {
    for (const server of used) {
      const raw = JSON.parse(stored.entries.get(server) ?? '{}') as Record<string, unknown>;
      const written = entryToInputs(server, raw);
      servers[server] = written.entry;
      Object.assign(inputs, written.inputs);
    }
  }
  const file = {
    $schema: PROFILE_FILE_SCHEMA_ID,
    formatVersion: PROFILE_FORMAT_VERSION,
    exportedAt: (options.now ?? new Date()).toISOString(),
    profile: { id, ...structuredClone(profile) },
    backendPolicies,
    ...(options.servers ? { servers } : {}),
    inputs,
  };
  // What we write must read back: a field the schema lacks would make the file useless.
  return ProfileFileSchema.parse(file);
}

/** The file's text: JSON, two-space indented, one trailing newline. */
export function profileFileText(file: ProfileFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}
