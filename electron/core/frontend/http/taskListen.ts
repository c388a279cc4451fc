/**
 * 2026-07-28 task status notifications (ext-tasks spec, "Task Status
 * Notifications"): a `subscriptions/listen` whose `notifications.taskIds`
 * names tasks is acknowledged with the ids it honours, the caller's own
 * tasks (an id of another profile is left out exactly as an unknown one is,
 * so nothing leaks), then gets one `notifications/tasks` (the full
 * DetailedTask, as tasks/get shows it) per status change of those tasks.
 *
 * The SDK's listen router keeps only its four list/resource filters
 * (listenRouter `honoredSubset`), so this filter is served here, beside it:
 * a listen naming `taskIds` is a task listen only, and its acknowledgement
 * names only `taskIds` (the spec's acknowledgement lists what is honoured).
 */
import { hasTaskClientCapabilityV2, TaskStatusNotificationV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import {
  MissingRequiredClientCapabilityError,
  SUBSCRIPTION_ID_META_KEY,
  type JSONRPCNotification,
} from '@modelcontextprotocol/server';
import type { TasksService } from '../../api/services.js';
import { isTerminal } from '../tasks/proxyTask.js';
import { detailedTask, TASKS_EXTENSION_ID } from '../server/taskMethods.js';

/** Whether a listen request asks for task status notifications (`notifications.taskIds`). */
export function wantsTaskListen(message: unknown): boolean {
  const params = (message as { params?: { notifications?: { taskIds?: unknown } } }).params;
  return Array.isArray(params?.notifications?.taskIds);
}

/** One open task listen: its acknowledgement, and its end (the stream closed). */
export interface TaskListen {
  acknowledgement: JSONRPCNotification;
  /** Whether any task was honoured (none: the caller may end the stream after the acknowledgement). */
  honoured: boolean;
  stop(): void;
}

/**
 * Opens a task listen of `client` for `message` (the `subscriptions/listen`
 * request); `send` gets each `notifications/tasks`, in order. Throws -32021
 * when the request did not declare the extension (spec, Capability Negotiation).
 */
export function openTaskListen(
  tasks: Pick<TasksService, 'registry' | 'detail'>,
  client: string,
  message: { id?: unknown; params?: unknown },
  send: (notification: JSONRPCNotification) => void,
): TaskListen {
  if (!hasTaskClientCapabilityV2(message.params))
    throw new MissingRequiredClientCapabilityError({
      requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } },
    } as ConstructorParameters<typeof MissingRequiredClientCapabilityError>[0]);
  const requested = (message.params as { notifications: { taskIds: unknown[] } }).notifications.taskIds;
  const ids = [...new Set(requested.filter((id): id is string => typeof id === 'string'))];
  const honoured = new Set(ids.filter((id) => tasks.registry.get(id, client) !== undefined));
  const meta = { [SUBSCRIPTION_ID_META_KEY]: message.id };
  const acknowledgement: JSONRPCNotification = {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: { taskIds: [...honoured] }, _meta: meta },
  };
  // Pushes go out in the order of the changes, each as tasks/get would show the task then.
  let chain = Promise.resolve();
  const stop = tasks.registry.onChange(({ kind, task }) => {
    if (kind !== 'status' || task.client !== client || !honoured.has(task.taskId)) return;
    const snapshot = { ...task };
    chain = chain.then(async () => {
      // A working task needs no round trip; input requests and results are what tasks/get adds.
      const detail =
        snapshot.status === 'working'
          ? { task: snapshot }
          : await tasks.detail(task.taskId, client).catch(() => undefined);
      if (!detail) return; // dropped meanwhile, or its tool denied since: nothing to show
      // Checked as it goes on the wire (a result may hold `undefined` fields, which JSON drops).
      const notification = JSON.parse(
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/tasks',
          params: { ...detailedTask(detail), _meta: meta },
        }),
      ) as JSONRPCNotification;
      if (TaskStatusNotificationV2Schema.safeParse(notification).success) send(notification);
    });
  });
  const follow = followBackends(tasks, client, honoured);
  return {
    acknowledgement,
    honoured: honoured.size > 0,
    stop: () => {
      stop();
      clearInterval(follow);
    },
  };
}

/**
 * A backend's task changes where only asking shows it (a 2026 backend's task
 * is polled, not pushed, and a 2025 backend may not push): while the listen
 * is open, ask for its open backend tasks at the poll interval we advise, as
 * the client would have; tasks/get's own refresh takes what it learns into
 * the registry, whose change is then pushed.
 */
function followBackends(
  tasks: Pick<TasksService, 'registry' | 'detail'>,
  client: string,
  honoured: Set<string>,
): NodeJS.Timeout {
  const every = Math.min(...[...honoured].map((id) => tasks.registry.get(id, client)?.pollIntervalMs ?? 1000), 1000);
  const asking = new Set<string>();
  const timer = setInterval(() => {
    for (const id of honoured) {
      const task = tasks.registry.get(id, client);
      if (task?.runsOn !== 'backend' || isTerminal(task.status) || asking.has(id)) continue;
      asking.add(id);
      void tasks
        .detail(id, client)
        .catch(() => undefined)
        .finally(() => asking.delete(id));
    }
  }, every);
  timer.unref();
  return timer;
}
