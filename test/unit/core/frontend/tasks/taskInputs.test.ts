/**
 * Questions of a task Switchboard runs: they wait (the task shows
 * input_required) until the owner's tasks/result puts them to the client,
 * marked with the task, and the answer goes back to the asking call.
 */
import { describe, expect, it } from 'vitest';
import type { FrontendChannel } from '../../../../../electron/core/frontend/relay/frontendChannel.js';
import { TaskInputs } from '../../../../../electron/core/frontend/tasks/taskInputs.js';

describe('TaskInputs', () => {
  it('holds a question until relayed, then answers the call', async () => {
    const waiting: boolean[] = [];
    const inputs = new TaskInputs((now) => waiting.push(now));
    const channel = inputs.channel(undefined);
    const signal = new AbortController().signal;
    const answer = channel.send(
      { method: 'elicitation/create', params: { message: 'ok?' } },
      { signal, timeout: 1000 },
    );
    expect(waiting).toEqual([true]);
    const sent: unknown[] = [];
    const frontend = {
      send: async (request: unknown) => {
        sent.push(request);
        return { action: 'accept', content: { answer: 'yes' } };
      },
    } as unknown as FrontendChannel;
    const input = await inputs.next(new Promise(() => undefined));
    await TaskInputs.relay(input!, frontend, 'task-1', { signal, timeout: 1000 });
    await expect(answer).resolves.toEqual({ action: 'accept', content: { answer: 'yes' } });
    expect(sent).toEqual([
      {
        method: 'elicitation/create',
        params: { message: 'ok?', _meta: { 'io.modelcontextprotocol/related-task': { taskId: 'task-1' } } },
      },
    ]);
    expect(waiting).toEqual([true, false]);
  });

  it('stops waiting once the task ends, and fails a question whose call was aborted', async () => {
    const inputs = new TaskInputs(() => undefined);
    await expect(inputs.next(Promise.resolve())).resolves.toBeUndefined();
    const abort = new AbortController();
    const asked = inputs.channel(undefined).send({ method: 'roots/list' }, { signal: abort.signal, timeout: 1000 });
    abort.abort(new Error('call cancelled'));
    await expect(asked).rejects.toThrow('call cancelled');
  });

  it('shows open questions by key for a 2026 owner and answers them by key, ignoring others', async () => {
    const inputs = new TaskInputs(() => undefined);
    const channel = inputs.channel(undefined);
    const signal = new AbortController().signal;
    const first = channel.send({ method: 'elicitation/create', params: { message: 'a?' } }, { signal, timeout: 1000 });
    const second = channel.send({ method: 'roots/list', params: {} }, { signal, timeout: 1000 });
    expect(inputs.requests()).toEqual({
      'input-1': { method: 'elicitation/create', params: { message: 'a?' } },
      'input-2': { method: 'roots/list', params: {} },
    });
    expect(inputs.respond({ 'input-2': { roots: [] }, 'never-asked': {} })).toBe(1);
    await expect(second).resolves.toEqual({ roots: [] });
    expect(Object.keys(inputs.requests() ?? {})).toEqual(['input-1']);
    inputs.respond({ 'input-1': { action: 'decline' } });
    await expect(first).resolves.toEqual({ action: 'decline' });
    expect(inputs.requests()).toBeUndefined();
    // Keys are never reused over the task's lifetime.
    void channel.send({ method: 'elicitation/create', params: { message: 'c?' } }, { signal, timeout: 1000 });
    expect(Object.keys(inputs.requests() ?? {})).toEqual(['input-3']);
  });
});
