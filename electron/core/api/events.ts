/**
 * The core's events. Each is an invalidation: something changed, re-read it
 * (see `TypedEmitter`).
 */
import type { LoggingMessageNotification } from '@modelcontextprotocol/client';
import type { BackendTaskStatus } from '../backends/connection/backendClient.js';

/** Events of the core; each is an invalidation. */
export interface CoreEvents extends Record<string, unknown> {
  /** The merged catalog changed (items added, removed or renamed). */
  catalogChanged: { tools: boolean; prompts: boolean; resources: boolean };
  /** Some backend's health changed (or it was added or removed). */
  healthChanged: { backendId: string };
  /** A hand edit of the config file was refused; the running config stays. */
  configError: { message: string };
  /** The config file is read and applied again after a refusal (the UI clears its banner). */
  configApplied: Record<string, never>;
  /** A client's token was revoked or rotated: its sessions must end. */
  clientRevoked: { client: string };
  /** Approvals were requested or answered. */
  approvalsChanged: Record<string, never>;
  /** A task was created, changed state or was dropped (tasks through the proxy). */
  tasksChanged: Record<string, never>;
  /** A backend sent a log message (`notifications/message`). */
  backendLog: { backendId: string; params: LoggingMessageNotification['params'] };
  /**
   * A rate limit of `policy.limits` refused a request before it reached its server (one event per refusal,
   * for counting): who (`client`, and `principal`'s subject in gateway mode), what, and which rule.
   */
  rateLimited: { client: string; principal?: string; backendId: string; kind: string; item: string; rule: number };
  /** A backend pushed a status of one of its own tasks (`notifications/tasks/status`). */
  backendTaskStatus: { backendId: string; params: BackendTaskStatus };
}
