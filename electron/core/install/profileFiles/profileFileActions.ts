/**
 * The three things the CLI's `profile` commands and the Clients screen do with
 * profile files, over one config store: export a profile as text, preview
 * what importing a file's text would change, and import it. Each reads the
 * config through the store (so a file that does not validate is refused the
 * same way), and only the import writes.
 */
import type { ConfigStore } from '../../platform/config/configStore.js';
import { applyImport, currentDocument, storedInputs, type ImportOutcome, type ImportOwner } from './applyImport.js';
import { exportProfile, profileFileText, type ExportOptions } from './exportProfile.js';
import { planImport, requireProfileFile, type ImportOptions, type ImportPlan } from './importPlan.js';

/** Profile `id` of the config as a profile file's text. */
export async function exportProfileText(store: ConfigStore, id: string, options: ExportOptions = {}): Promise<string> {
  return profileFileText(exportProfile(await store.read(), id, options));
}

/** The config's client profiles: ID and name. */
export async function listProfiles(store: ConfigStore): Promise<{ id: string; name: string }[]> {
  const { config } = await store.read();
  return Object.entries(config.policy.clients).map(([id, profile]) => ({ id, name: profile.name }));
}

/** What importing `text` would change (refused, naming each field, when the file is not valid). */
export async function previewProfileImport(
  owner: Pick<ImportOwner, 'store' | 'keychain'>,
  text: string,
  options: ImportOptions = {},
): Promise<ImportPlan> {
  const file = requireProfileFile(text);
  const held = await storedInputs(owner.keychain, Object.keys(file.inputs));
  return planImport(file, { document: await currentDocument(owner.store), stored: (name) => held.has(name) }, options);
}

/** Imports `text` with the secret values given (by input name); nothing is written when it is refused. */
export async function importProfileText(
  owner: ImportOwner,
  text: string,
  options: ImportOptions,
  values: Readonly<Record<string, string>>,
  signal?: AbortSignal,
): Promise<ImportOutcome> {
  return applyImport(owner, requireProfileFile(text), options, values, signal);
}
