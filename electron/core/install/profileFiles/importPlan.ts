/**
 * `profile import`, before anything is written: the file read and checked
 * (each problem names its field by dotted path, `profile.exposure: …`), and
 * what importing it into the config as it is now would change: the profile
 * new or replaced (and which of its fields change), each server added or
 * already there (left as it is, the same or differing), each server policy,
 * and the secrets to give. Pure: the caller says which secrets the keychain
 * already holds.
 */
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { ErrorCode, ErrorFix, SwitchboardError } from '../../../../shared/errors.js';
import { BACKEND_ID_PATTERN } from '../../../../shared/ids.js';
import { LOCAL_CLIENT } from '../../platform/config/policyConfig.js';
import { parseBackend, type ConfigProblem } from '../../platform/config/schema.js';
import { ProfileFileSchema, type ProfileFile } from './profileFileSchema.js';
import { entryFromInputs, inputUses } from './serverInputs.js';

/** How the file is imported. */
export interface ImportOptions {
  /** Import the profile under this ID instead of the file's (`--as`). */
  as?: string | undefined;
  /** Replace a profile of the same ID (`--replace`). */
  replace?: boolean | undefined;
}

/** What would happen to one server. `missing`: the profile uses it, and neither the file nor the config has it. */
export type ServerChange = 'added' | 'same' | 'differs' | 'missing';
/** What would happen to one server's policy (`policy.backends.<id>`). */
export type PolicyChange = 'added' | 'same' | 'differs';

/** One secret the import needs. */
export interface InputNeed {
  name: string;
  description: string;
  /** The keychain holds a secret of this name already: giving one is optional (it replaces it). */
  stored: boolean;
  /** Used inside an argument or URL: written there in place, not kept in the keychain. */
  inline: boolean;
}

/** What importing the file would change; names and states only, never a value. */
export interface ImportPlan {
  /** The profile ID it is imported as. */
  id: string;
  profile: { state: 'new' | 'replaced'; changedFields: string[] };
  servers: { id: string; state: ServerChange }[];
  policies: { id: string; state: PolicyChange }[];
  inputs: InputNeed[];
}

/** The config as it is now: the raw document (`mcpServers`, `policy`) and the secrets the keychain holds. */
export interface ImportTarget {
  document: Record<string, unknown>;
  /** Whether the keychain holds a secret of this name. */
  stored: (name: string) => boolean;
}

function issues(error: z.ZodError): ConfigProblem[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message:
      issue.code === 'unrecognized_keys' ? `unknown key(s): ${issue.keys.join(', ')}` : (issue.message as string),
  }));
}

/** The problems of each server: its inputs declared, and its entry valid as config once they are given. */
function serverProblems(file: ProfileFile): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const [id, server] of Object.entries(file.servers ?? {})) {
    for (const use of inputUses(server, `servers.${id}`)) {
      if (!(use.name in file.inputs)) {
        problems.push({ path: use.path, message: `input "${use.name}" is not declared under inputs` });
      }
    }
    const entry = entryFromInputs(server, () => 'input');
    problems.push(...parseBackend(id, entry, ['servers', id]).problems);
  }
  return problems;
}

/** Reads a profile file's text: the file, or every problem with the dotted path of its field. */
export function readProfileFile(text: string): { file?: ProfileFile; problems: ConfigProblem[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { problems: [{ path: '(root)', message: `not JSON: ${(error as Error).message}` }] };
  }
  if (typeof raw === 'object' && raw !== null && 'formatVersion' in raw && raw.formatVersion !== 1) {
    const version = String((raw as { formatVersion: unknown }).formatVersion);
    return {
      problems: [{ path: 'formatVersion', message: `format ${version} is not known to this version (it reads 1)` }],
    };
  }
  const parsed = ProfileFileSchema.safeParse(raw);
  if (!parsed.success) return { problems: issues(parsed.error) };
  const problems = serverProblems(parsed.data);
  return problems.length > 0 ? { problems } : { file: parsed.data, problems };
}

/** {@link readProfileFile}, or `config_invalid` naming each problem (`data.problems`). */
export function requireProfileFile(text: string): ProfileFile {
  const { file, problems } = readProfileFile(text);
  if (file) return file;
  const lines = problems.map((problem) => `${problem.path}: ${problem.message}`);
  throw new SwitchboardError(ErrorCode.ConfigInvalid, `the profile file is not valid:\n${lines.join('\n')}`, {
    problems,
  });
}

function section(document: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = document[key];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** The profile ID to import as: `--as`, else the file's; refused when taken (unless `replace`) or malformed. */
function importedId(file: ProfileFile, options: ImportOptions, clients: Record<string, unknown>): string {
  const id = options.as ?? file.profile.id;
  if (!BACKEND_ID_PATTERN.test(id) || id === LOCAL_CLIENT) {
    throw new SwitchboardError(
      ErrorCode.InvalidParams,
      `"${id}" cannot be a profile ID: use letters, digits, _ and -, starting with a letter (not "${LOCAL_CLIENT}")`,
      { path: 'as' },
    );
  }
  if (id in clients && !options.replace) {
    throw new SwitchboardError(ErrorCode.DuplicateClient, `a client profile "${id}" exists already`, {
      client: id,
      fix: ErrorFix.ReplaceOrRename,
    });
  }
  return id;
}

/** The profile as `policy.clients.<id>` holds it (the file's fields without `id`). */
export function profileEntry(file: ProfileFile): Record<string, unknown> {
  const { id: _id, ...profile } = file.profile;
  return profile;
}

/** What importing `file` into `target` would change; throws when the profile ID is taken or malformed. */
export function planImport(file: ProfileFile, target: ImportTarget, options: ImportOptions = {}): ImportPlan {
  const policy = section(target.document, 'policy');
  const clients = section(policy, 'clients');
  const localServers = section(target.document, 'mcpServers');
  const localPolicies = section(policy, 'backends');
  const id = importedId(file, options, clients);
  const before = clients[id] as Record<string, unknown> | undefined;
  const after = profileEntry(file);
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after)])];
  const servers = new Map<string, ServerChange>();
  for (const [server, entry] of Object.entries(file.servers ?? {})) {
    const local = localServers[server];
    const incoming = entryFromInputs(entry, () => '');
    servers.set(server, local === undefined ? 'added' : isDeepStrictEqual(local, incoming) ? 'same' : 'differs');
  }
  for (const server of file.profile.backends ?? []) {
    if (!servers.has(server)) servers.set(server, server in localServers ? 'same' : 'missing');
  }
  const added = [...servers].filter(([, state]) => state === 'added').map(([server]) => server);
  const policies = Object.entries(file.backendPolicies).map(([server, incoming]) => {
    const local = localPolicies[server];
    const state: PolicyChange =
      local === undefined || added.includes(server) ? 'added' : isDeepStrictEqual(local, incoming) ? 'same' : 'differs';
    return { id: server, state };
  });
  // Only the servers this import adds need their secrets: one already here is left as it is.
  const uses = added.flatMap((server) => inputUses(file.servers?.[server], `servers.${server}`));
  const inputs = [...new Set(uses.map((use) => use.name))].map((name): InputNeed => {
    const inline = uses.some((use) => use.name === name && use.inline);
    return {
      name,
      description: file.inputs[name]?.description ?? name,
      stored: !inline && target.stored(name),
      inline,
    };
  });
  return {
    id,
    profile: {
      state: before === undefined ? 'new' : 'replaced',
      changedFields: before === undefined ? [] : fields.filter((f) => !isDeepStrictEqual(before[f], after[f])),
    },
    servers: [...servers].map(([server, state]) => ({ id: server, state })),
    policies,
    inputs,
  };
}
