/**
 * Tasks as the UI sees them (MCP tasks through the proxy): one row per task
 * of this instance, whoever owns it. No arguments or results: those stay
 * with the client that asked.
 */

/** The task states of the MCP spec. */
export type TaskStatusView = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** One task of this instance. */
export interface TaskView {
  /** Our task id (the one the client holds; never the backend's). */
  id: string;
  status: TaskStatusView;
  statusMessage?: string;
  /** The client profile that created it. */
  client: string;
  backend: string;
  /** The tool's exposed (merged catalog) name. */
  tool: string;
  /** ISO time it was created (its age is counted from this). */
  createdAt: string;
  /** ISO time of its last change. */
  lastUpdatedAt: string;
  /** Its lifetime from creation (ms); it and its result are dropped after it. */
  ttlMs: number;
  /** `backend`: the backend's own task; `switchboard`: the ordinary call run by Switchboard. */
  runsOn: 'backend' | 'switchboard';
}
