/**
 * The client-install module as the UI's Clients screen will call it: each
 * operation returns its data, or its error as data (`{code, message, data}`),
 * never a thrown exception across the boundary.
 */
import { toErrorData } from '../errors/toErrorData.js';
import { importServers, listImportable, type ImportOptions, type ImportOutcome } from './import.js';
import {
  detectClients,
  installClient,
  undoLastWrite,
  uninstallClient,
  type ClientsContext,
  type ScopeOptions,
} from './install.js';
import { clientSnippet, type Snippet } from './snippet.js';
import type { ClientStatus, ImportCandidate, Result, WriteOutcome } from './types.js';

/** Client operations bound to one context. */
export interface ClientsApi {
  detect(): Promise<Result<ClientStatus[]>>;
  install(client: string, scope?: ScopeOptions): Promise<Result<WriteOutcome>>;
  uninstall(client: string, scope?: ScopeOptions): Promise<Result<WriteOutcome>>;
  undo(client: string, scope?: ScopeOptions): Promise<Result<WriteOutcome>>;
  snippet(client: string, scope?: ScopeOptions): Promise<Result<Snippet>>;
  listImportable(client: string, options: ImportOptions): Promise<Result<ImportCandidate[]>>;
  importServers(
    client: string,
    options: ImportOptions & { names?: string[]; replace?: boolean },
  ): Promise<Result<ImportOutcome>>;
}

async function settle<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, result: await work() };
  } catch (error) {
    return { ok: false, error: toErrorData(error) };
  }
}

/** The API for `ctx` (see `defaultClientsContext` for this user's). */
export function createClientsApi(ctx: ClientsContext): ClientsApi {
  return {
    detect: () => settle(() => detectClients(ctx)),
    install: (client, scope) => settle(() => installClient(ctx, client, scope)),
    uninstall: (client, scope) => settle(() => uninstallClient(ctx, client, scope)),
    undo: (client, scope) => settle(() => undoLastWrite(ctx, client, scope)),
    snippet: (client, scope) => settle(() => clientSnippet(ctx, client, scope)),
    listImportable: (client, options) => settle(() => listImportable(ctx, client, options)),
    importServers: (client, options) => settle(() => importServers(ctx, client, options)),
  };
}

export type { ClientsContext, ScopeOptions } from './install.js';
export type { ImportOptions, ImportOutcome } from './import.js';
export type { Snippet } from './snippet.js';
export { defaultClientsContext } from './context.js';
export * from './types.js';
