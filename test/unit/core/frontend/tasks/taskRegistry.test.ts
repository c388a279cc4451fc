/**
 * The task registry on its own: ids of ours, ownership by client profile,
 * TTL within limits and expiry, the per-client cap (retryable), first end
 * wins, and a backend's open tasks failed together.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode, SwitchboardError } from '../../../../../shared/errors.js';
import { TaskRegistry, type TaskChange } from '../../../../../electron/core/frontend/tasks/taskRegistry.js';
import { grantedTtl, type TaskLimits } from '../../../../../electron/core/frontend/tasks/taskLimits.js';
import { wireTask } from '../../../../../electron/core/frontend/tasks/proxyTask.js';

const LIMITS: TaskLimits = { ttlDefaultMs: 3_600_000, ttlMaxMs: 86_400_000, maxPerClient: 2 };
const OWNER = { client: 'cursor', backendId: 'jobs', tool: 'jobs__report', original: 'report' };

describe('TaskRegistry', () => {
  let registry: TaskRegistry;
  beforeEach(() => {
    vi.useFakeTimers();
    registry = new TaskRegistry({ limits: () => LIMITS });
  });
  afterEach(() => {
    registry.dispose();
    vi.useRealTimers();
  });

  it('gives each task an unguessable id of its own', () => {
    const a = registry.create(OWNER, undefined, 'backend');
    const b = registry.create(OWNER, undefined, 'backend');
    expect(a.taskId).not.toBe(b.taskId);
    expect(a.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a.runsOn).toBe('backend');
    expect(wireTask(a)).toMatchObject({ taskId: a.taskId, status: 'working', ttl: LIMITS.ttlDefaultMs });
  });

  it("keeps an ended task's result fetched after its end, told as a change, once; never an open task's", () => {
    const changes: TaskChange['kind'][] = [];
    registry.onChange((change) => changes.push(change.kind));
    const open = registry.create(OWNER, undefined, 'backend');
    registry.keepOutcome(open.taskId, { result: { content: [] } });
    expect(open.outcome).toBeUndefined();
    registry.finish(open.taskId, 'completed', undefined);
    const first = { result: { content: [{ type: 'text' as const, text: 'first' }] } };
    registry.keepOutcome(open.taskId, first);
    registry.keepOutcome(open.taskId, { result: { content: [] } });
    expect(registry.get(open.taskId, 'cursor')?.outcome).toEqual(first);
    expect(changes).toEqual(['created', 'status', 'status']);
  });

  it('shows a task only to the profile that created it', () => {
    const task = registry.create(OWNER, undefined);
    expect(registry.get(task.taskId, 'cursor')).toBe(task);
    expect(registry.get(task.taskId, 'claude-code')).toBeUndefined();
    expect(registry.list('claude-code')).toEqual([]);
    expect(registry.list('cursor')).toEqual([task]);
  });

  it('grants the TTL asked for within the limits', () => {
    expect(grantedTtl(undefined, LIMITS)).toBe(3_600_000);
    expect(grantedTtl(5000, LIMITS)).toBe(5000);
    expect(grantedTtl(10 * 86_400_000, LIMITS)).toBe(86_400_000);
    expect(grantedTtl(-1, LIMITS)).toBe(3_600_000);
    expect(grantedTtl('60000', LIMITS)).toBe(3_600_000);
  });

  it('drops a task and its result when its TTL runs out', () => {
    const changes: TaskChange['kind'][] = [];
    registry.onChange((change) => changes.push(change.kind));
    const task = registry.create(OWNER, 5000);
    registry.finish(task.taskId, 'completed', { result: { content: [] } });
    vi.advanceTimersByTime(4999);
    expect(registry.get(task.taskId, 'cursor')?.outcome).toEqual({ result: { content: [] } });
    vi.advanceTimersByTime(1);
    expect(registry.get(task.taskId, 'cursor')).toBeUndefined();
    expect(changes).toEqual(['created', 'status', 'dropped']);
  });

  it('refuses a task beyond the cap with a retryable error, and takes one again once a task ends', () => {
    const first = registry.create(OWNER, undefined);
    registry.create(OWNER, undefined);
    let refused: unknown;
    try {
      registry.create(OWNER, undefined);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(SwitchboardError);
    expect((refused as SwitchboardError).code).toBe(ErrorCode.TaskLimit);
    expect((refused as SwitchboardError).data).toMatchObject({ retryable: true });
    // Another profile has a cap of its own.
    expect(() => registry.create({ ...OWNER, client: 'zed' }, undefined)).not.toThrow();
    registry.finish(first.taskId, 'cancelled', { error: { code: -32800, message: 'cancelled' } });
    expect(() => registry.create(OWNER, undefined)).not.toThrow();
  });

  it('keeps the first end of a task', async () => {
    const task = registry.create(OWNER, undefined);
    const settled = registry.settled(task.taskId);
    expect(registry.finish(task.taskId, 'cancelled', { error: { code: -32800, message: 'cancelled' } })).toBe(true);
    expect(registry.finish(task.taskId, 'completed', { result: { content: [] } })).toBe(false);
    registry.setStatus(task.taskId, 'working');
    expect(task.status).toBe('cancelled');
    await expect(settled).resolves.toBeUndefined();
  });

  it("fails a backend's open tasks with the reason, leaving finished ones and other backends alone", () => {
    const open = registry.create(OWNER, undefined);
    const done = registry.create(OWNER, undefined);
    registry.finish(done.taskId, 'completed', { result: { content: [] } });
    const other = registry.create({ ...OWNER, client: 'zed', backendId: 'other' }, undefined);
    const failed = registry.failBackend('jobs', 'server jobs stopped (crashed)');
    expect(failed).toEqual([open]);
    expect(open).toMatchObject({ status: 'failed', statusMessage: 'server jobs stopped (crashed)' });
    expect(done.status).toBe('completed');
    expect(other.status).toBe('working');
  });

  it("keeps a bounded number of a client's finished tasks, dropping the oldest first", () => {
    const bounded = new TaskRegistry({ limits: () => ({ ...LIMITS, maxPerClient: 10 }), maxFinishedPerClient: 2 });
    const done = (client: string) => {
      const task = bounded.create({ ...OWNER, client }, undefined);
      vi.advanceTimersByTime(5);
      bounded.finish(task.taskId, 'completed', { result: { content: [] } });
      return task;
    };
    const [first, second, third] = [done('cursor'), done('cursor'), done('cursor')];
    const live = bounded.create(OWNER, undefined);
    const others = done('zed');
    expect(bounded.find(first.taskId)).toBeUndefined();
    expect(bounded.get(second.taskId, 'cursor')).toBe(second);
    expect(bounded.get(third.taskId, 'cursor')).toBe(third);
    expect(bounded.get(live.taskId, 'cursor')).toBe(live);
    expect(bounded.get(others.taskId, 'zed')).toBe(others);
    bounded.dispose();
  });
});
