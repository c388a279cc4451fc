/**
 * The parts of the task service that are not its state: what it needs from
 * the core, what a task request carries, what it keeps per task beside the
 * registry, and the errors it answers.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { BackendConnection } from '../../backends/connection/backendConnection.js';
import type { Catalog } from '../../catalog/catalog.js';
import type { FrontendChannel } from '../relay/frontendChannel.js';
import type { RelayHost } from '../relay/inputRelay.js';
import type { ProgressUpdate } from '../routing/forwarding.js';
import { toProtocolError } from '../routing/protocolErrors.js';
import type { Router } from '../routing/router.js';
import type { ProxyTask, TaskOutcome } from './proxyTask.js';
import type { TaskAuditSink } from './taskAudit.js';
import type { TaskInputs } from './taskInputs.js';
import type { TaskLimits } from './taskLimits.js';

/** What the task service needs from the core. */
export interface TaskServiceHost extends RelayHost {
  router: Pick<Router, 'callTool' | 'resolveToolCall' | 'mayCallTool'>;
  catalog(): Catalog;
  /** A backend's live connection now, if any (a new one after a restart). */
  connection(backendId: string): BackendConnection | undefined;
  limits(): TaskLimits;
  audit?: TaskAuditSink;
}

/** Who asks, and from where (the frontend request making it). */
export interface TaskRequestOptions {
  client: string;
  signal?: AbortSignal | undefined;
  frontend?: FrontendChannel | undefined;
  onProgress?: ((progress: ProgressUpdate) => void) | undefined;
}

/** What we keep per task beside the registry: its connection, and for our own runs the abort and the questions. */
export interface Run {
  connection: BackendConnection;
  abort?: AbortController;
  inputs?: TaskInputs;
  /** The backend's task is a 2026-07-28 one (io.modelcontextprotocol/tasks). */
  modern?: boolean;
}

/** A task as 2026-07-28 tasks/get shows it: with its open input requests (`inputRequests`). */
export interface TaskDetail {
  task: ProxyTask;
  inputRequests?: Record<string, unknown> | undefined;
}

/** The answer to an unknown task id, or one of another profile (never says which). */
export function unknownTask(taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${taskId}`);
}

/** A failure as kept in a task's outcome (a JSON-RPC error). */
export function errorOutcome(error: unknown): TaskOutcome {
  const wire = toProtocolError(error);
  if (wire instanceof ProtocolError) return { error: { code: wire.code, message: wire.message, data: wire.data } };
  return { error: { code: ProtocolErrorCode.InternalError, message: (wire as Error)?.message ?? String(wire) } };
}
