/**
 * The client-install module's public names: the context (this user's
 * platform, paths and token), the types, and the data the operations return.
 * The operations themselves live in install.ts, import.ts and snippet.ts.
 */
export type { ClientsContext, ScopeOptions } from './install.js';
export type { ImportOptions, ImportOutcome } from './import.js';
export type { Snippet } from './snippet.js';
export { defaultClientsContext } from './context.js';
export * from './types.js';
