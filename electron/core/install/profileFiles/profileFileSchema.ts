/**
 * The profile file: one client profile (`policy.clients.<id>`) written out to
 * be shared or kept, with the policies of the servers it uses and, on
 * request, those servers themselves. Versioned (`formatVersion`), and never
 * holding a secret: every secret is a named input (`{"input": NAME}`, or
 * `${input:NAME}` inside a string) declared under `inputs`, which the import
 * asks for. The profile's and the backend policies' shapes are the config's
 * own schemas (platform/config/policyConfig.ts), so a field added there is a
 * field of the file. docs/schemas/profile-file.v1.schema.json is generated
 * from this (build/write-profile-schema.ts; a unit test keeps it in step).
 */
import { z } from 'zod';
import { BACKEND_ID_PATTERN } from '../../../../shared/ids.js';
import { BackendPolicySchema, ClientProfileSchema } from '../../platform/config/policyConfig.js';

/** The version this code writes and reads. */
export const PROFILE_FORMAT_VERSION = 1;

/** What the `$schema` of a written file says: the committed schema's `$id`, its file name in docs/schemas/. */
export const PROFILE_FILE_SCHEMA_ID = 'profile-file.v1.schema.json';

/** An input's name: also the keychain name its value is stored under. */
export const INPUT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const idSchema = z
  .string()
  .regex(BACKEND_ID_PATTERN, 'IDs use letters, digits, _ and -, starting with a letter')
  .meta({ description: 'Letters, digits, _ and -, starting with a letter.' });

const inputName = z
  .string()
  .regex(INPUT_NAME_PATTERN, 'an input name uses letters, digits, ".", "_" and "-" (at most 128)');

/** A secret left out of the file, to be given at import: `{"input": NAME}`. */
const InputReference = z
  .strictObject({ input: inputName })
  .meta({ description: 'A secret left out of the file: the import asks for the input of this name.' });

/** An env or header value: plain text (may hold `${VAR}` and `${input:NAME}`), or a whole input. */
const ServerValue = z.union([z.string(), InputReference]);
const ValueMap = z.record(z.string(), ServerValue);

/**
 * One server, as its `mcpServers` entry in config.json (docs/config.md) with
 * each secret replaced by an input. A server added from a registry keeps its
 * `source` (registry, name, version); one from a bundle file has
 * `source.registry` `file://…`. Options beyond those listed here are the
 * entry's own (prefix, start, sandbox, overrides, …) and are checked as config.
 */
const ServerSchema = z
  .object({
    command: z.string().optional().meta({ description: 'A stdio server: the command to run.' }),
    args: z
      .array(z.string())
      .optional()
      .meta({ description: 'Its arguments; a secret inside one is written `${input:NAME}`.' }),
    cwd: z.string().optional().meta({ description: 'Its working directory.' }),
    env: ValueMap.optional().meta({ description: 'Its environment: values, `${VAR}` references or inputs.' }),
    url: z
      .string()
      .optional()
      .meta({ description: 'A remote server: its URL; a secret inside it is written `${input:NAME}`.' }),
    type: z.string().optional().meta({ description: 'The remote transport (`http`, `sse`, …).' }),
    transport: z.string().optional().meta({ description: 'Another spelling of `type`.' }),
    headers: ValueMap.optional().meta({ description: 'HTTP headers sent to a remote server: values or inputs.' }),
    launch: z
      .object({ command: z.string(), args: z.array(z.string()).optional(), env: ValueMap.optional() })
      .catchall(z.unknown())
      .optional()
      .meta({ description: 'The process Switchboard starts to serve a remote URL.' }),
    source: z
      .object({ registry: z.string(), name: z.string(), version: z.string() })
      .catchall(z.unknown())
      .optional()
      .meta({
        description:
          'Where the server came from: an MCP registry (its URL, the server name and version) or a bundle file (`file://…`).',
      }),
  })
  .catchall(z.unknown())
  .meta({ description: "A server: its config.json entry, secrets replaced by inputs (see the entry's fields)." });

/** One input the import asks for. */
const InputSchema = z.strictObject({
  description: z.string().meta({ description: 'What the value is for (the server and the field it fills).' }),
  secret: z.literal(true).meta({ description: 'Always true: the value is stored in the OS keychain.' }),
});

/** The profile: its ID and the fields of `policy.clients.<id>`. */
const ProfileSchema = ClientProfileSchema.extend({ id: idSchema }).meta({
  description: 'The client profile: its ID and every field of `policy.clients.<id>` (docs/authorization.md).',
});

/** The whole file. */
export const ProfileFileSchema = z
  .strictObject({
    $schema: z.string().optional().meta({ description: 'This schema, for editors.' }),
    formatVersion: z.literal(PROFILE_FORMAT_VERSION).meta({ description: 'The file format: 1.' }),
    exportedAt: z.string().optional().meta({ description: 'When it was written (ISO 8601).' }),
    profile: ProfileSchema,
    backendPolicies: z
      .record(idSchema, BackendPolicySchema)
      .default({})
      .meta({ description: 'The `policy.backends.<id>` of each server the profile uses that has one.' }),
    servers: z
      .record(idSchema, ServerSchema)
      .optional()
      .meta({ description: 'The servers the profile uses (written with `profile export --servers`).' }),
    inputs: z
      .record(inputName, InputSchema)
      .default({})
      .meta({ description: 'Every secret left out, by name; the import asks for each and keeps it in the keychain.' }),
  })
  .meta({ title: 'MCP Switchboard profile file', description: 'A client profile, versioned, without secrets.' });

/** A profile file as read. */
export type ProfileFile = z.output<typeof ProfileFileSchema>;
/** One server of a profile file. */
export type ProfileFileServer = z.output<typeof ServerSchema>;
/** One input of a profile file. */
export type ProfileFileInput = z.output<typeof InputSchema>;

/** The JSON Schema of the file, as committed in docs/schemas/. */
export function profileFileJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ProfileFileSchema, { io: 'input', target: 'draft-2020-12' });
  return { ...schema, $id: PROFILE_FILE_SCHEMA_ID };
}
