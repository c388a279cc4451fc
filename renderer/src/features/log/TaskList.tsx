/**
 * Tasks of this instance (MCP tasks through the proxy) on the Request log
 * screen: tool, client, server, status and age, live (fetched while shown,
 * re-fetched on each change), and a Cancel button for a running one. Tasks
 * are kept in memory only: a restart of Switchboard loses them.
 */
import { useEffect, useState } from 'react';
import type { ErrorData } from '../../../../shared/errors.js';
import type { TaskStatusView, TaskView } from '../../../../shared/model/taskViews.js';
import { DataTable } from '../../components/DataTable.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { Badge, type Tone } from '../../components/HealthBadge.js';
import { useAppStore, useShown } from '../../store/context.js';

const STATUS_TONE: Record<TaskStatusView, Tone> = {
  working: 'info',
  input_required: 'warn',
  completed: 'ok',
  failed: 'bad',
  cancelled: 'idle',
};

/** A task's age as people say it: 42 s, 5 min, 2 h 10 min. */
export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/** The current time, ticking every second (ages count up while shown). */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const running = (task: TaskView): boolean => task.status === 'working' || task.status === 'input_required';

/** The tasks panel. */
export function TaskList() {
  const tasks = useAppStore((s) => s.tasks);
  const cancelTask = useAppStore((s) => s.cancelTask);
  const [error, setError] = useState<ErrorData | undefined>();
  useShown('tasks');
  const now = useNow();
  const list = tasks.data ?? [];
  const cancel = async (task: TaskView): Promise<void> => {
    const outcome = await cancelTask(task.id);
    setError(outcome.ok ? undefined : outcome.error);
  };
  return (
    <section className="panel" aria-label="Tasks">
      <h2>Tasks</h2>
      <p className="muted small">Long calls clients run as tasks; kept in memory until they expire.</p>
      <ErrorNote error={tasks.error ?? error} />
      {list.length === 0 ? (
        <p className="muted">No tasks.</p>
      ) : (
        <DataTable
          label="Tasks"
          rows={list}
          rowKey={(task) => task.id}
          rowLabel={(task) => `Task ${task.tool} of ${task.client}`}
          columns={[
            { header: 'Tool', className: 'mono small', cell: (task) => task.tool },
            { header: 'Client', cell: (task) => task.client },
            { header: 'Server', cell: (task) => task.backend },
            {
              header: 'Status',
              cell: (task) => (
                <>
                  <Badge tone={STATUS_TONE[task.status]}>{task.status.replace('_', ' ')}</Badge>
                  {task.statusMessage && <div className="small muted">{task.statusMessage}</div>}
                </>
              ),
            },
            { header: 'Age', cell: (task) => formatAge(now - Date.parse(task.createdAt)) },
            {
              header: 'Actions',
              hiddenHeader: true,
              cell: (task) =>
                running(task) && (
                  <button type="button" onClick={() => void cancel(task)} aria-label={`Cancel task ${task.tool}`}>
                    Cancel
                  </button>
                ),
            },
          ]}
        />
      )}
    </section>
  );
}
