/**
 * IDs the user chooses: backend IDs (the keys of `mcpServers`) and client
 * profile IDs (the keys of `policy.clients`). One rule for both, checked by the
 * config schema, the policy schema and the UI's forms alike.
 */

/** Letters, digits, `_` and `-`, starting with a letter. */
export const BACKEND_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** What a form says of an ID that breaks {@link BACKEND_ID_PATTERN} (`what`: "name", "ID"). */
export function badIdMessage(what: string): string {
  return `The ${what} must start with a letter and use only letters, digits, _ and -.`;
}
