/**
 * Which task support a tool is served with: a task server's own word
 * (absent = forbidden), and for any other server `optional` (Switchboard
 * runs the call), unless the tool itself says `forbidden`.
 */
import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/server';
import {
  backendRunsTasks,
  forwardsTasks,
  servedTaskSupport,
  withTaskSupport,
} from '../../../../../electron/core/frontend/tasks/taskSupport.js';

const tool = (taskSupport?: string): Tool =>
  ({ name: 't', inputSchema: { type: 'object' }, ...(taskSupport ? { execution: { taskSupport } } : {}) }) as Tool;
const TASK_SERVER = { tasks: { requests: { tools: { call: {} } } } };

describe('task support', () => {
  it("takes a task server's word, absent meaning forbidden", () => {
    expect(backendRunsTasks(TASK_SERVER)).toBe(true);
    expect(servedTaskSupport(tool('required'), true)).toBe('required');
    expect(servedTaskSupport(tool('optional'), true)).toBe('optional');
    expect(servedTaskSupport(tool(), true)).toBe('forbidden');
    expect(forwardsTasks(tool('optional'), TASK_SERVER)).toBe(true);
    expect(forwardsTasks(tool(), TASK_SERVER)).toBe(false);
  });

  it('serves any tool of a server without tasks as optional, unless it says forbidden', () => {
    expect(backendRunsTasks({ tools: {} })).toBe(false);
    expect(servedTaskSupport(tool(), false)).toBe('optional');
    expect(servedTaskSupport(tool('required'), false)).toBe('optional');
    expect(servedTaskSupport(tool('forbidden'), false)).toBe('forbidden');
    expect(forwardsTasks(tool('optional'), { tools: {} })).toBe(false);
  });

  it('keeps the tool as listed when unknown, and adds execution without touching the original', () => {
    expect(servedTaskSupport(tool('required'), undefined)).toBe('required');
    const original = tool();
    const listed = withTaskSupport(original, 'optional');
    expect(listed).toMatchObject({ name: 't', execution: { taskSupport: 'optional' } });
    expect(original).not.toHaveProperty('execution');
    const same = tool('optional');
    expect(withTaskSupport(same, 'optional')).toBe(same);
  });
});
