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
 *
 * With replicas a task another replica runs is honoured too: its changes
 * come over Redis (TasksService.followElsewhere), and are shown as tasks/get
 * through this replica shows them. Without replicas nothing of that runs.
 */
import { hasTaskClientCapabilityV2, TaskStatusNotificationV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import {
  MissingRequiredClientCapabilityError,
  SUBSCRIPTION_ID_META_KEY,
  type JSONRPCNotification,
} from '@modelcontextprotocol/server';
import type { TasksService } from '../../api/services.js';
import { isTerminal, type ProxyTask } from '../tasks/proxyTask.js';
import { detailedTask, TASKS_EXTENSION_ID } from '../server/taskMethods.js';

/** Whether a listen request asks for task status notifications (`notifications.taskIds`). */
export function wantsTaskListen(message: unknown): boolean {
  const params = (message as { params?: { notifications?: { taskIds?: unknown } } }).params;
  return Array.isArray(params?.notifications?.taskIds);
}

/** One open task listen: whether it honoured any task, and its end (the stream closed). */
export interface TaskListen {
  /** Whether any task was honoured (none: the caller may end the stream after the acknowledgement). */
  honoured: boolean;
  stop(): void;
}

/** What a task listen uses of the tasks service. */
type ListenTasks = Pick<TasksService, 'registry' | 'detail' | 'followElsewhere'>;

/**
 * Opens a task listen of `client` for `message` (the `subscriptions/listen`
 * request); `send` gets its acknowledgement, then each `notifications/tasks`,
 * in order. Rejects with -32021 when the request did not declare the
 * extension (spec, Capability Negotiation), before sending anything.
 */
export async function openTaskListen(
  tasks: ListenTasks,
  client: string,
  message: { id?: unknown; params?: unknown },
  send: (notification: JSONRPCNotification) => void,
): Promise<TaskListen> {
  if (!hasTaskClientCapabilityV2(message.params))
    throw new MissingRequiredClientCapabilityError({
      requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } },
    } as ConstructorParameters<typeof MissingRequiredClientCapabilityError>[0]);
  const requested = (message.params as { notifications: { taskIds: unknown[] } }).notifications.taskIds;
  const ids = [...new Set(requested.filter((id): id is string => typeof id === 'string'))];
  const local = new Set(ids.filter((id) => tasks.registry.get(id, client) !== undefined));
  const meta = { [SUBSCRIPTION_ID_META_KEY]: message.id };
  // Pushes go out after the acknowledgement, in the order of the changes, each as tasks/get would show the task then.
  let acknowledge!: () => void;
  let chain = new Promise<void>((resolve) => (acknowledge = resolve));
  const push = (snapshot: ProxyTask): void => {
    chain = chain.then(() => pushed(tasks, client, snapshot, meta, send));
  };
  const stopLocal = tasks.registry.onChange(({ kind, task }) => {
    if (kind === 'status' && task.client === client && local.has(task.taskId)) push({ ...task });
  });
  const remote = new Map<string, ProxyTask>();
  const elsewhere = await tasks.followElsewhere(
    ids.filter((id) => !local.has(id)),
    client,
    (task) => {
      remote.set(task.taskId, task);
      push(task);
    },
  );
  for (const task of elsewhere.tasks) if (!remote.has(task.taskId)) remote.set(task.taskId, task);
  const honoured = [...local, ...elsewhere.tasks.map((task) => task.taskId)];
  send({
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: { taskIds: honoured }, _meta: meta },
  });
  acknowledge();
  const follow = followBackends(tasks, client, honoured, (id) => tasks.registry.get(id, client) ?? remote.get(id));
  return {
    honoured: honoured.length > 0,
    stop: () => {
      stopLocal();
      elsewhere.stop();
      clearInterval(follow);
    },
  };
}

/** Sends one `notifications/tasks` for a task's change (nothing when it is gone or no longer visible). */
async function pushed(
  tasks: ListenTasks,
  client: string,
  snapshot: ProxyTask,
  meta: Record<string, unknown>,
  send: (notification: JSONRPCNotification) => void,
): Promise<void> {
  // A working task needs no round trip; input requests and results are what tasks/get adds.
  const detail =
    snapshot.status === 'working'
      ? { task: snapshot }
      : await tasks.detail(snapshot.taskId, client).catch(() => undefined);
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
}

/**
 * A backend's task changes where only asking shows it (a 2026 backend's task
 * is polled, not pushed, and a 2025 backend may not push): while the listen
 * is open, ask for its open backend tasks at the poll interval we advise, as
 * the client would have; tasks/get's own refresh takes what it learns into
 * the registry, whose change is then pushed (another replica's task is asked
 * of its owner, whose change then comes over Redis).
 */
function followBackends(
  tasks: ListenTasks,
  client: string,
  honoured: string[],
  known: (taskId: string) => ProxyTask | undefined,
): NodeJS.Timeout {
  const every = Math.min(...honoured.map((id) => known(id)?.pollIntervalMs ?? 1000), 1000);
  const asking = new Set<string>();
  const timer = setInterval(() => {
    for (const id of honoured) {
      const task = known(id);
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
