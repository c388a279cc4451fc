/**
 * The SDK client one backend connection talks through: what we declare to the
 * backend (input capabilities, protocol era), how lists are paged and watched,
 * and where the backend's notifications go.
 */
import { Client, type LoggingMessageNotification } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { BackendConfig, ProxyOptions } from '../../platform/config/schema.js';
import { BACKEND_INPUT_CAPABILITIES } from './callTracking.js';

/** What we read of a 2025-11-25 `notifications/tasks/status` (the rest of the Task is the backend's). */
const TaskStatusParams = z.object({
  taskId: z.string(),
  status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
  statusMessage: z.string().optional(),
});

/** A backend's pushed task status. */
export type BackendTaskStatus = z.infer<typeof TaskStatusParams>;

/** What the SDK client of a backend is built from, and where its notifications go. */
export interface BackendClientOptions {
  config: BackendConfig;
  proxy: ProxyOptions;
  clientInfo: { name: string; version: string };
  /** Called (debounced) when the backend says one of its lists changed. */
  onListChanged?: () => void;
  /** Called with each log message the backend sends (`notifications/message`). */
  onLog?: (params: LoggingMessageNotification['params']) => void;
  /** Called when the backend reports a change to a resource we subscribed to. */
  onResourceUpdated?: (uri: string) => void;
  /** Called when a 2025-11-25 backend reports a task's new status (`notifications/tasks/status`). */
  onTaskStatus?: (status: BackendTaskStatus) => void;
}

/** How long a `server/discover` probe may wait for its answer (a timeout reads as a 2025 server). */
export function probeTimeoutMs(requestTimeoutMs: number): number {
  return Math.min(10_000, requestTimeoutMs);
}

/**
 * Builds the SDK client for a backend; `requestTimeoutMs` bounds the version
 * probe. `knownLegacy`: an earlier probe found a 2025 server (backendEras.ts),
 * so `auto` skips the probe.
 */
export function createBackendClient(
  options: BackendClientOptions,
  requestTimeoutMs: number,
  knownLegacy = false,
): Client {
  const { config, proxy } = options;
  const auto = knownLegacy ? 'legacy' : 'auto';
  const mode = config.protocol === 'auto' ? auto : config.protocol === 'legacy' ? 'legacy' : { pin: config.protocol };
  const client = new Client(options.clientInfo, {
    capabilities: BACKEND_INPUT_CAPABILITIES,
    // A 2026-07-28 backend's input_required goes back to the frontend as is (the router asks per call).
    inputRequired: { autoFulfill: false },
    versionNegotiation: { mode, probe: { timeoutMs: probeTimeoutMs(requestTimeoutMs) } },
    // The catalog is capped anyway; a server paging forever must not hang us.
    listMaxPages: Math.max(64, Math.ceil(proxy.maxCatalogItems / 10)),
    // We re-list everything ourselves (templates too), so only the signal matters.
    listChanged: Object.fromEntries(
      (['tools', 'prompts', 'resources'] as const).map((kind) => [
        kind,
        { autoRefresh: false, debounceMs: 100, onChanged: () => options.onListChanged?.() },
      ]),
    ),
  });
  client.setNotificationHandler('notifications/message', (notification) => {
    options.onLog?.(notification.params);
  });
  // Both eras deliver subscribed updates here (2025 unsolicited, 2026 on a listen stream).
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    options.onResourceUpdated?.(notification.params.uri);
  });
  // 2025-11-25 Tasks: "Receivers MAY send" status notifications; a pushed status spares a poll.
  // The SDK v2 client types no 2025 task notifications, so the schema form is used.
  client.setNotificationHandler('notifications/tasks/status', { params: TaskStatusParams }, (status) => {
    options.onTaskStatus?.(status);
  });
  return client;
}

/** `promise`, or the signal's reason once it aborts first. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
