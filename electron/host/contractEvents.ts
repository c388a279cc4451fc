/**
 * The core's events as the contract's invalidations. Core events and session
 * changes are coalesced for `delayMs` (default 50 ms), so a burst (a backend
 * connecting) reaches the UI as one event of each kind; audit log appends,
 * which make the UI re-read the log, for `logDelayMs` (default 1 s), so a
 * hundred calls a second cost one re-read a second. Payloads only narrow what
 * to re-fetch, and pass the secret redaction (a config error can quote a value).
 */
import type { CoreEventMap, EventName } from '../../shared/contract.js';
import type { TryProgressView } from '../../shared/model/views.js';
import type { AuditLog } from '../core/catalog/index.js';
import type { Switchboard } from '../core/api/index.js';
import type { TryCalls } from './tryCalls.js';

/** A listener of every contract event. */
export type ContractListener = <E extends EventName>(event: E, payload: CoreEventMap[E]) => void;

/** Coalesced contract events of one core. */
export interface EventHub {
  /** Subscribes; returns the function that unsubscribes. */
  on(listener: ContractListener): () => void;
  /** Queues an event (coalesced with others of its kind). */
  emit<E extends EventName>(event: E, payload: CoreEventMap[E]): void;
  /** Stops listening to the core; pending events are dropped. */
  close(): void;
}

/** Merges two payloads of one kind queued in the same burst. */
function merge<E extends EventName>(event: E, before: CoreEventMap[E] | undefined, next: CoreEventMap[E]) {
  if (before === undefined) return next;
  if (event === 'backendsChanged') {
    const a = (before as CoreEventMap['backendsChanged']).backendId;
    const b = (next as CoreEventMap['backendsChanged']).backendId;
    return (a !== undefined && a === b ? { backendId: a } : {}) as CoreEventMap[E];
  }
  if (event === 'tryProgress') {
    // The latest update of each call in the burst.
    const calls = new Map<string, TryProgressView>();
    for (const update of [
      ...(before as CoreEventMap['tryProgress']).calls,
      ...(next as CoreEventMap['tryProgress']).calls,
    ])
      calls.set(update.callId, update);
    return { calls: [...calls.values()] } as CoreEventMap[E];
  }
  return next; // configChanged: the latest state wins; the others carry nothing
}

/** What `createEventHub` takes besides the core. */
export interface EventHubOptions {
  audit?: AuditLog;
  /** Coalescing window of every event but `logAppended` (default 50 ms). */
  delayMs?: number;
  /** Coalescing window of `logAppended` (default 1 s). */
  logDelayMs?: number;
  /** Applied to every payload before it leaves (the secret redaction). */
  redact?: (value: unknown) => unknown;
  /** The UI's "try it" calls: their progress and waiting input requests become events. */
  tryCalls?: TryCalls;
}

/** Events queued for one flush. */
interface Queue {
  pending: Map<EventName, unknown>;
  timer: NodeJS.Timeout | undefined;
  delayMs: number;
}

/** Adapts `core` (and its audit log) to the contract's events. */
export function createEventHub(
  core: Pick<Switchboard, 'events' | 'sessions'>,
  options: EventHubOptions = {},
): EventHub {
  const redact = options.redact ?? ((value: unknown) => value);
  const listeners = new Set<ContractListener>();
  const queue = (delayMs: number): Queue => ({ pending: new Map(), timer: undefined, delayMs });
  const fast = queue(options.delayMs ?? 50);
  const slow = queue(options.logDelayMs ?? 1000);
  const flush = (q: Queue): void => {
    q.timer = undefined;
    const batch = q.pending;
    q.pending = new Map();
    for (const [event, payload] of batch) {
      let safe: unknown;
      try {
        safe = redact(payload);
      } catch {
        continue; // never sent unredacted
      }
      for (const listener of listeners) {
        try {
          listener(event, safe as never);
        } catch {
          // One broken pipe must not stop the others.
        }
      }
    }
  };
  const emit = <E extends EventName>(event: E, payload: CoreEventMap[E]): void => {
    const q = event === 'logAppended' ? slow : fast;
    q.pending.set(event, merge(event, q.pending.get(event) as CoreEventMap[E] | undefined, payload));
    q.timer ??= setTimeout(() => flush(q), q.delayMs);
  };
  const empty = {} as Record<string, never>;
  const stops = [
    core.events.on('catalogChanged', () => {
      emit('catalogChanged', empty);
      // Counts, policy items and pin reviews all follow the catalog.
      emit('backendsChanged', {});
      emit('policyChanged', empty);
      emit('pinsChanged', empty);
    }),
    core.events.on('healthChanged', ({ backendId }) => emit('backendsChanged', { backendId })),
    core.events.on('configError', ({ message }) => emit('configChanged', { error: message })),
    core.events.on('configApplied', () => emit('configChanged', {})),
    core.events.on('clientRevoked', () => {
      emit('policyChanged', empty);
      emit('sessionsChanged', empty);
    }),
    core.events.on('approvalsChanged', () => emit('approvalsChanged', empty)),
    core.events.on('tasksChanged', () => emit('tasksChanged', empty)),
    core.sessions.onChange(() => emit('sessionsChanged', empty)),
    ...(options.audit ? [options.audit.onRecord(() => emit('logAppended', empty))] : []),
    ...(options.tryCalls
      ? [
          options.tryCalls.on({
            progress: (update) => emit('tryProgress', { calls: [update] }),
            inputsChanged: () => emit('tryInputsChanged', empty),
          }),
        ]
      : []),
  ];
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit,
    close() {
      for (const stop of stops) stop();
      for (const q of [fast, slow]) {
        if (q.timer) clearTimeout(q.timer);
        q.timer = undefined;
        q.pending.clear();
      }
      listeners.clear();
    },
  };
}
