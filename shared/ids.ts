/**
 * IDs the user chooses: backend IDs (the keys of `mcpServers`) and client
 * profile IDs (the keys of `policy.clients`). One rule for both, checked by the
 * config schema, the policy schema and the UI's forms alike.
 */

/** Letters, digits, `_` and `-`, starting with a letter. */
export const BACKEND_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;
