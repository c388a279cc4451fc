// @vitest-environment jsdom
/**
 * The Tasks panel of the Request log screen: each task's tool, client,
 * server, status and age; Cancel only on a running task, asking the core.
 */
import { cleanup, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskView } from '../../../../../shared/model/taskViews.js';
import { formatAge, TaskList } from '../../../../../renderer/src/features/log/TaskList.js';
import { renderWithStore } from '../../renderWithStore.js';

const ago = (ms: number): string => new Date(Date.now() - ms).toISOString();
const TASKS: TaskView[] = [
  {
    id: 'a1',
    status: 'working',
    statusMessage: 'step 2/5',
    client: 'cursor',
    backend: 'jobs',
    tool: 'jobs__report',
    createdAt: ago(125_000),
    lastUpdatedAt: ago(1000),
    ttlMs: 3_600_000,
    runsOn: 'backend',
  },
  {
    id: 'b2',
    status: 'completed',
    client: 'local',
    backend: 'asks',
    tool: 'asks__hold',
    createdAt: ago(5000),
    lastUpdatedAt: ago(1000),
    ttlMs: 3_600_000,
    runsOn: 'switchboard',
  },
];

describe('Tasks panel', () => {
  afterEach(cleanup);

  it('says an age as people do', () => {
    expect(formatAge(42_000)).toBe('42 s');
    expect(formatAge(5 * 60_000 + 10_000)).toBe('5 min');
    expect(formatAge(2 * 3_600_000)).toBe('2 h');
    expect(formatAge(2 * 3_600_000 + 10 * 60_000)).toBe('2 h 10 min');
  });

  it('shows each task with status and age, and cancels only a running one', async () => {
    const user = userEvent.setup();
    const { client } = await renderWithStore(<TaskList />, (fake) => {
      fake.handle('tasks.list', () => TASKS);
      fake.handle('tasks.cancel', () => ({ cancelled: true }));
    });
    const running = screen.getByRole('row', { name: 'Task jobs__report of cursor' });
    expect(running.textContent).toContain('working');
    expect(running.textContent).toContain('step 2/5');
    expect(running.textContent).toContain('2 min');
    const done = screen.getByRole('row', { name: 'Task asks__hold of local' });
    expect(within(done).queryByRole('button')).toBeNull();
    await user.click(within(running).getByRole('button', { name: 'Cancel task jobs__report' }));
    expect(client.calls.find((call) => call.method === 'tasks.cancel')?.params).toEqual({ id: 'a1' });
  });
});
