/**
 * Tasks of this instance (MCP tasks through the proxy), fetched while the
 * request log shows them; cancelling one does not re-fetch (the core's
 * tasksChanged event does).
 */
import type { CoreClient } from '../../../../shared/contract.js';
import { fetchRemote, idle } from '../remote.js';
import type { SliceCreator, TasksSlice } from '../types.js';

export type { TasksSlice };

/** Creates the tasks slice. */
export function createTasksSlice(client: CoreClient): SliceCreator<TasksSlice> {
  return (set, get) => ({
    tasks: idle(),
    fetchTasks: () =>
      fetchRemote(
        () => get().tasks,
        (tasks) => set({ tasks }),
        () => client.call('tasks.list'),
      ),
    cancelTask: (id) => client.call('tasks.cancel', { id }),
  });
}
