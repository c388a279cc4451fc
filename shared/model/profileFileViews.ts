/**
 * Profile files in the UI (docs/profiles.md): what the Clients screen gets
 * from an export, and the preview of an import. The preview names inputs
 * only: secret values travel one way, from the renderer to the host, when
 * the import is applied.
 */

/** An exported profile: the file's name and its text (the renderer saves it). */
export interface ProfileExportView {
  fileName: string;
  text: string;
}

/** One secret an import needs; never its value. */
export interface ProfileInputView {
  name: string;
  description: string;
  /** The keychain holds one of this name: giving a value is optional (it replaces it). */
  stored: boolean;
  /** Written into the server's arguments or URL, not kept in the keychain. */
  inline: boolean;
}

/** What importing a profile file would change. */
export interface ProfileImportPreviewView {
  /** The profile ID it is imported as. */
  id: string;
  profile: { state: 'new' | 'replaced'; changedFields: string[] };
  /** `missing`: the profile uses it, and neither the file nor the config has it. */
  servers: { id: string; state: 'added' | 'same' | 'differs' | 'missing' }[];
  policies: { id: string; state: 'added' | 'same' | 'differs' }[];
  inputs: ProfileInputView[];
}

/** What an import did. */
export interface ProfileImportView {
  id: string;
  /** The servers it added. */
  servers: string[];
  /** The secrets it stored in the keychain (names). */
  secrets: string[];
}
