/**
 * `profile import`, carried out: the secrets given go to the OS keychain,
 * then the profile, the servers it adds and their policies go into the config
 * in ONE write through the config store (the plan is made again inside that
 * write, against the file as it is then), and the new client gets its token
 * the way `install` gives one (derived, so asking again gives the same). A
 * failure before the write is done leaves the config as it was and takes back
 * the secrets this import created.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { ClientTokens } from '../../catalog/policy/clientTokens.js';
import type { ConfigStore } from '../../platform/config/configStore.js';
import { readConfigText } from '../../platform/config/storedConfig.js';
import type { SecretStore } from '../../platform/secrets/secretStore.js';
import { planImport, profileEntry, type ImportOptions, type ImportPlan } from './importPlan.js';
import type { ProfileFile } from './profileFileSchema.js';
import { entryFromInputs } from './serverInputs.js';

/** What an import writes to. */
export interface ImportOwner {
  store: ConfigStore;
  tokens: Pick<ClientTokens, 'tokenFor' | 'issue'>;
  keychain: SecretStore | undefined;
}

/** What an import did (names only). */
export interface ImportOutcome {
  plan: ImportPlan;
  /** The secrets stored in the keychain. */
  storedSecrets: string[];
  /** Whether the client has a token now (issued by this import, or kept from before). */
  tokenIssued: boolean;
}

/** The raw config document as it is on disk (a missing file is `{}`). */
export async function currentDocument(store: ConfigStore): Promise<Record<string, unknown>> {
  await store.read(); // refuses a file that does not validate, naming each problem
  const text = await readConfigText(store.path);
  return text === undefined || text.trim() === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/** Which inputs the keychain holds already. */
export async function storedInputs(keychain: SecretStore | undefined, names: string[]): Promise<Set<string>> {
  if (!keychain || !(await keychain.status()).available) return new Set();
  const held = new Set(await keychain.list());
  return new Set(names.filter((name) => held.has(name)));
}

/** The inputs still without a value: needed ones neither given nor in the keychain. */
export function missingInputs(plan: ImportPlan, values: Readonly<Record<string, string>>): string[] {
  return plan.inputs.filter((input) => !input.stored && !values[input.name]).map((input) => input.name);
}

async function storeSecrets(
  keychain: SecretStore | undefined,
  plan: ImportPlan,
  values: Readonly<Record<string, string>>,
): Promise<{ stored: string[]; created: string[] }> {
  const toStore = plan.inputs.filter((input) => !input.inline && values[input.name]);
  if (toStore.length === 0) return { stored: [], created: [] };
  const status = keychain ? await keychain.status() : { available: false, reason: 'no keychain configured' };
  if (!keychain || !status.available) {
    throw new SwitchboardError(
      ErrorCode.NotSupported,
      `the OS keychain is not available (${status.reason ?? 'unknown reason'}): the profile's secrets cannot be stored; nothing was imported`,
    );
  }
  const created: string[] = [];
  for (const input of toStore) {
    if (!input.stored) created.push(input.name);
    await keychain.set(input.name, values[input.name] as string);
  }
  return { stored: toStore.map((input) => input.name), created };
}

/** Applies `plan`'s changes to the document (in place). */
function applyPlan(
  document: Record<string, unknown>,
  file: ProfileFile,
  plan: ImportPlan,
  inline: (n: string) => string,
) {
  const policy = (document['policy'] ??= {}) as Record<string, unknown>;
  const clients = (policy['clients'] ??= {}) as Record<string, unknown>;
  clients[plan.id] = profileEntry(file);
  const servers = (document['mcpServers'] ??= {}) as Record<string, unknown>;
  for (const server of plan.servers.filter((s) => s.state === 'added')) {
    servers[server.id] = entryFromInputs(file.servers?.[server.id], inline);
  }
  const policies = plan.policies.filter((p) => p.state === 'added');
  if (policies.length > 0) {
    const backends = (policy['backends'] ??= {}) as Record<string, unknown>;
    for (const entry of policies) backends[entry.id] = file.backendPolicies[entry.id];
  }
}

/**
 * Imports the file: refused (nothing written) when a needed secret is
 * missing, the profile ID is taken without `replace`, or the result does not
 * validate as config.
 */
export async function applyImport(
  owner: ImportOwner,
  file: ProfileFile,
  options: ImportOptions,
  values: Readonly<Record<string, string>>,
  signal?: AbortSignal,
): Promise<ImportOutcome> {
  const names = Object.keys(file.inputs);
  const held = await storedInputs(owner.keychain, names);
  const target = (document: Record<string, unknown>) => ({ document, stored: (name: string) => held.has(name) });
  const first = planImport(file, target(await currentDocument(owner.store)), options);
  const missing = missingInputs(first, values);
  if (missing.length > 0) {
    throw new SwitchboardError(ErrorCode.InvalidParams, `no value for ${missing.join(', ')}; nothing was imported`, {
      missing,
    });
  }
  const secrets = await storeSecrets(owner.keychain, first, values);
  let plan = first;
  try {
    await owner.store.change((document) => {
      plan = planImport(file, target(document), options);
      const late = missingInputs(plan, values);
      if (late.length > 0) {
        throw new SwitchboardError(ErrorCode.InvalidParams, `no value for ${late.join(', ')}; nothing was imported`, {
          missing: late,
        });
      }
      applyPlan(document, file, plan, (name) => values[name] ?? '');
    }, signal);
  } catch (error) {
    for (const name of secrets.created) await owner.keychain?.delete(name).catch(() => undefined);
    throw error;
  }
  const token = (await owner.tokens.tokenFor(plan.id)) ?? (await owner.tokens.issue(plan.id));
  return { plan, storedSecrets: secrets.stored, tokenIssued: token.length > 0 };
}
