/**
 * The one contract between the core and the UI. Electron IPC (main + preload)
 * and the headless bridge (HTTP + WebSocket) are both generated from these two
 * maps, so a method without a handler, or a handler with the wrong types, is a
 * compile error on every side.
 *
 * - Methods are request/response, declared once in contractMethods.ts (a zod
 *   schema of the params, the result type). Errors cross as data
 *   (`ErrorData`, one closed set of codes), never as thrown strings: every
 *   call settles with a `CallOutcome`. A call can be cancelled (`signal`).
 * - Events are invalidations: "something of this kind changed; re-fetch it".
 *   Their payloads only narrow what to re-fetch.
 * - No secret value ever crosses: secrets are written through `secrets.set`
 *   and read by nobody. The one exception is a client token right after
 *   `profiles.createToken` / `profiles.rotateToken`, shown once so the user can
 *   copy it into a client that Switchboard does not configure itself.
 */
import type { z } from 'zod';
import type { METHODS, noParams } from './contractMethods.js';
import type { Result } from './errors.js';
import type { TryProgressView } from './model/views.js';

type Specs = typeof METHODS;

/**
 * Every method the UI may call, by name: its parameters and its result,
 * derived from `METHODS` in contractMethods.ts. The parameters' type is the
 * schema's output: what a handler gets, and what a caller sends (the schema
 * also accepts the absent forms it fills in, such as `arguments: {}`).
 */
export type CoreMethods = {
  [M in keyof Specs]: {
    params: Specs[M]['params'] extends typeof noParams ? void : z.output<Specs[M]['params']>;
    result: Specs[M]['result'];
  };
};

/** Every event the core sends, by name; each is an invalidation. */
export interface CoreEventMap {
  /** Backends were added, removed, edited, or changed health. */
  backendsChanged: { backendId?: string };
  /** The merged catalog changed. */
  catalogChanged: Record<string, never>;
  /** Rules, profiles or tokens changed. */
  policyChanged: Record<string, never>;
  approvalsChanged: Record<string, never>;
  pinsChanged: Record<string, never>;
  sessionsChanged: Record<string, never>;
  /** New entries in the request log. */
  logAppended: Record<string, never>;
  /** A hand edit of the config file was refused, or an earlier refusal cleared. */
  configChanged: { error?: string };
  /** Progress of "try it" calls: the latest update of each call that had one in this burst. */
  tryProgress: { calls: TryProgressView[] };
  /** A "try it" call's elicitation request arrived or was settled (re-fetch `catalog.inputs`). */
  tryInputsChanged: Record<string, never>;
  /** A task was created, changed state or was dropped (re-fetch `tasks.list`). */
  tasksChanged: Record<string, never>;
}

/** A method's name. */
export type MethodName = keyof CoreMethods;
/** An event's name. */
export type EventName = keyof CoreEventMap;
/** Parameters of method M. */
export type ParamsOf<M extends MethodName> = CoreMethods[M]['params'];
/** Result of method M. */
export type ResultOf<M extends MethodName> = CoreMethods[M]['result'];

/** How every call settles: a result, or an error as data (the one result shape, `Result`). */
export type CallOutcome<R> = Result<R>;

/**
 * The AbortSignal of the environment that compiles this file (the DOM's in
 * the renderer, Node's in electron/): shared/ is compiled without either, so
 * it names the type without using it.
 */
type AbortSignal = typeof globalThis extends { AbortSignal: { prototype: infer S } } ? S : never;

/** What a handler gets besides its params. */
export interface CallContext {
  /** Aborted when the caller cancels the call (or its pipe closes, or the host shuts down). */
  signal: AbortSignal;
}

/**
 * Implementation of every method: the core side of both pipes. A missing
 * method fails to compile; params arrive parsed (see `dispatch`).
 */
export type CoreHandlers = {
  [M in MethodName]: (params: ParamsOf<M>, call: CallContext) => Promise<ResultOf<M>>;
};

/** Options of one call. */
export interface CallOptions {
  /** Cancels the call: it settles at once with `cancelled`, and the core stops the work. */
  signal?: AbortSignal;
}

/** What the renderer calls, whatever the pipe: every method returns its outcome, never throws. */
export interface CoreClient {
  call<M extends MethodName>(
    method: M,
    ...params: ParamsOf<M> extends void ? [] : [ParamsOf<M>]
  ): Promise<CallOutcome<ResultOf<M>>>;
  /** A cancellable call (`params` undefined for a method without). */
  call<M extends MethodName>(
    method: M,
    params: ParamsOf<M> extends void ? undefined : ParamsOf<M>,
    options: CallOptions,
  ): Promise<CallOutcome<ResultOf<M>>>;
  on<E extends EventName>(event: E, listener: (payload: CoreEventMap[E]) => void): () => void;
}

/**
 * The method names, as a value: the preload exposes exactly these and the
 * bridge accepts exactly these. Listed here, apart from `METHODS`, so the
 * sandboxed preload bundles no zod; `satisfies` makes a name missing from
 * (or extra to) `METHODS` a compile error.
 */
export const METHOD_NAMES = Object.keys({
  'app.info': 1,
  'backends.list': 1,
  'backends.check': 1,
  'backends.add': 1,
  'backends.parseSnippet': 1,
  'backends.update': 1,
  'backends.remove': 1,
  'backends.setEnabled': 1,
  'backends.restart': 1,
  'backends.refresh': 1,
  'backends.authorize': 1,
  'backends.signOut': 1,
  'secrets.set': 1,
  'secrets.list': 1,
  'catalog.list': 1,
  'catalog.access': 1,
  'catalog.search': 1,
  'catalog.callTool': 1,
  'catalog.getPrompt': 1,
  'catalog.readResource': 1,
  'catalog.cancelCall': 1,
  'catalog.inputs': 1,
  'catalog.answerInput': 1,
  'overrides.get': 1,
  'overrides.set': 1,
  'policy.get': 1,
  'policy.setRule': 1,
  'policy.setRules': 1,
  'policy.setBackend': 1,
  'approvals.list': 1,
  'approvals.resolve': 1,
  'pins.list': 1,
  'pins.approve': 1,
  'connections.list': 1,
  'connections.revoke': 1,
  'connections.everyone': 1,
  'connections.revokeCaller': 1,
  'reviews.list': 1,
  'reviews.get': 1,
  'reviews.scans': 1,
  'reviews.approveServer': 1,
  'reviews.approveChange': 1,
  'reviews.quarantine': 1,
  'reviews.startUnsandboxed': 1,
  'profiles.list': 1,
  'profiles.createToken': 1,
  'profiles.rotateToken': 1,
  'profiles.revoke': 1,
  'profiles.setExposure': 1,
  'profiles.export': 1,
  'profiles.previewImport': 1,
  'profiles.import': 1,
  'sessions.list': 1,
  'tasks.list': 1,
  'tasks.cancel': 1,
  'log.query': 1,
  'clients.list': 1,
  'clients.install': 1,
  'clients.uninstall': 1,
  'clients.snippet': 1,
  'clients.importable': 1,
  'clients.import': 1,
  'clients.installSkills': 1,
  'config.backups': 1,
  'config.restore': 1,
  'registry.search': 1,
  'registry.add': 1,
  'registry.outdated': 1,
  'registry.preview': 1,
  'registry.update': 1,
  'env.path': 1,
  'env.setExtraPath': 1,
  'sandbox.settings': 1,
  'sandbox.setDefault': 1,
  'sandbox.server': 1,
  'sandbox.grant': 1,
  'sandbox.revoke': 1,
  'sandbox.setEnabled': 1,
  'sandbox.learn': 1,
  'sandbox.acceptLearned': 1,
  'bundles.inspect': 1,
  'bundles.install': 1,
  'me.get': 1,
  'me.calls': 1,
  'me.connections.revoke': 1,
} satisfies Record<MethodName, 1>) as MethodName[];

/** The event names, as a value. */
export const EVENT_NAMES = Object.keys({
  backendsChanged: 1,
  catalogChanged: 1,
  policyChanged: 1,
  approvalsChanged: 1,
  pinsChanged: 1,
  sessionsChanged: 1,
  logAppended: 1,
  configChanged: 1,
  tryProgress: 1,
  tryInputsChanged: 1,
  tasksChanged: 1,
} satisfies Record<EventName, 1>) as EventName[];
