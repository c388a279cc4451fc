/**
 * Whether and how a tool can run as a task through Switchboard (2025-11-25
 * `execution.taskSupport`: `required`, `optional` or `forbidden`; absent
 * means forbidden). A backend that declares tasks for tools/call gets its
 * tools' own word and task calls forwarded; for any other backend we run
 * the ordinary call as our own task, so its tools are `optional` unless one
 * says `forbidden` itself.
 */
import type { ServerCapabilities, Tool } from '@modelcontextprotocol/server';
import { TASKS_EXTENSION_ID } from '../../backends/connection/backendRequests.js';

/** A tool's task support as we serve it. */
export type TaskSupport = 'required' | 'optional' | 'forbidden';

/**
 * Whether a 2026-07-28 backend declares the io.modelcontextprotocol/tasks extension
 * (server/discover). Over a 2025 connection it does not count: that era's tasks are core's.
 */
export function backendHasTasksExtension(capabilities: ServerCapabilities | undefined, era?: string): boolean {
  if (era !== 'modern') return false;
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  const entry = extensions?.[TASKS_EXTENSION_ID];
  return typeof entry === 'object' && entry !== null;
}

/**
 * Whether a backend takes task calls: 2025-11-25 `capabilities.tasks.requests.tools.call`,
 * or the 2026-07-28 tasks extension.
 */
export function backendRunsTasks(capabilities: ServerCapabilities | undefined, era?: string): boolean {
  const tasks = (capabilities as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined)?.tasks;
  return tasks?.requests?.tools?.call !== undefined || backendHasTasksExtension(capabilities, era);
}

/** The backend's own word on a tool, if it said one. */
export function declaredTaskSupport(tool: Tool | undefined): TaskSupport | undefined {
  const value = (tool as { execution?: { taskSupport?: unknown } } | undefined)?.execution?.taskSupport;
  return value === 'required' || value === 'optional' || value === 'forbidden' ? value : undefined;
}

/**
 * The task support we advertise and honour for a tool. `backendTasks` is
 * undefined while we do not know the backend's capabilities (not connected
 * yet): the tool's own word then, else optional.
 */
export function servedTaskSupport(
  tool: Tool | undefined,
  backendTasks: boolean | undefined,
  extension = false,
): TaskSupport {
  // 2026-07-28 tools have no execution.taskSupport: see forwardsTasks.
  if (extension) return 'optional';
  const declared = declaredTaskSupport(tool);
  if (backendTasks === true) return declared ?? 'forbidden';
  if (declared === 'forbidden') return 'forbidden';
  return backendTasks === false ? 'optional' : (declared ?? 'optional');
}

/** Whether a task call to this tool goes to the backend as its own task (else we run it). */
export function forwardsTasks(
  tool: Tool | undefined,
  capabilities: ServerCapabilities | undefined,
  era?: string,
): boolean {
  // A 2026-07-28 Tool has no `execution.taskSupport`: with the tasks extension "the
  // server MAY respond to any tools/call request with a CreateTaskResult" when the
  // request declared the extension (ext-tasks spec, Capability Negotiation). So every
  // tool of such a backend is optional-by-server-decision: the call goes out declaring
  // the extension and the backend answers a task or a plain result, per request.
  if (backendHasTasksExtension(capabilities, era)) return true;
  const declared = declaredTaskSupport(tool);
  return backendRunsTasks(capabilities) && (declared === 'optional' || declared === 'required');
}

/** Listed copies already made, per catalog tool and support (a tools/list allocates them once). */
const listedCopies = new WeakMap<Tool, Partial<Record<TaskSupport, Tool>>>();

/** A tool as listed to a 2025-11-25 client: with the task support we serve (the catalog's tool untouched). */
export function withTaskSupport(tool: Tool, support: TaskSupport): Tool {
  if (declaredTaskSupport(tool) === support) return tool;
  let copies = listedCopies.get(tool);
  if (!copies) listedCopies.set(tool, (copies = {}));
  return (copies[support] ??= {
    ...tool,
    execution: { ...(tool as { execution?: object }).execution, taskSupport: support },
  } as Tool);
}
