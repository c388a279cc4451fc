/**
 * The core's events as the contract's invalidations. Core events, audit log
 * appends and session changes are coalesced for `delayMs` (default 50 ms), so
 * a burst (a backend connecting, a hundred calls) reaches the UI as one event
 * of each kind. Payloads only narrow what to re-fetch.
 */
import type { CoreEventMap, EventName } from '../../shared/contract.js';
import type { AuditLog } from '../core/policy/auditLog.js';
import type { SwitchboardCore } from '../core/switchboard.js';

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
  return next; // configChanged: the latest state wins; the others carry nothing
}

/** Adapts `core` (and its audit log) to the contract's events. */
export function createEventHub(core: SwitchboardCore, options: { audit?: AuditLog; delayMs?: number } = {}): EventHub {
  const delayMs = options.delayMs ?? 50;
  const listeners = new Set<ContractListener>();
  let pending = new Map<EventName, unknown>();
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    timer = undefined;
    const batch = pending;
    pending = new Map();
    for (const [event, payload] of batch) {
      for (const listener of listeners) {
        try {
          listener(event, payload as never);
        } catch {
          // One broken pipe must not stop the others.
        }
      }
    }
  };
  const emit = <E extends EventName>(event: E, payload: CoreEventMap[E]): void => {
    pending.set(event, merge(event, pending.get(event) as CoreEventMap[E] | undefined, payload));
    timer ??= setTimeout(flush, delayMs);
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
    core.events.on('clientRevoked', () => {
      emit('policyChanged', empty);
      emit('sessionsChanged', empty);
    }),
    core.events.on('approvalsChanged', () => emit('approvalsChanged', empty)),
    core.sessions.onChange(() => emit('sessionsChanged', empty)),
    ...(options.audit ? [options.audit.onRecord(() => emit('logAppended', empty))] : []),
  ];
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit,
    close() {
      for (const stop of stops) stop();
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending.clear();
      listeners.clear();
    },
  };
}
