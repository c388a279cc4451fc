import { describe, expect, it } from 'vitest';
import { compactLine, compactTool, PURPOSE_MAX } from '../../../../../electron/core/frontend/exposure/compactTool.js';
import type { FoundTool } from '../../../../../electron/core/frontend/exposure/toolExposure.js';

const found = (over: Partial<FoundTool>): FoundTool => ({
  name: 'gh__create_issue',
  server: 'gh',
  description: 'Create a new issue in a GitHub repository. Needs push access.\nMore text.',
  inputSchema: {
    type: 'object',
    properties: {
      repo: { type: 'string' },
      labels: { type: 'array', items: { type: 'string' } },
      state: { type: 'string', enum: ['open', 'closed'] },
      milestone: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      body: {},
    },
    required: ['repo'],
  },
  ...over,
});

describe('compactTool', () => {
  it('keeps the name, server, first sentence and each argument with its type and whether it is required', () => {
    expect(compactTool(found({}))).toEqual({
      name: 'gh__create_issue',
      server: 'gh',
      purpose: 'Create a new issue in a GitHub repository.',
      args: 'repo: string, labels?: string[], state?: "open"|"closed", milestone?: integer|null, body?: any',
    });
  });

  it('marks read-only and destructive tools, and nothing else of the annotations', () => {
    expect(compactTool(found({ annotations: { readOnlyHint: true, title: 'x' } }))).toMatchObject({ readOnly: true });
    const destructive = compactTool(found({ annotations: { readOnlyHint: false, destructiveHint: true } }));
    expect(destructive.destructive).toBe(true);
    expect(destructive).not.toHaveProperty('readOnly');
    expect(compactTool(found({ annotations: { openWorldHint: true } }))).not.toHaveProperty('destructive');
  });

  it('cuts a long first sentence, and reads Chinese sentence ends', () => {
    expect(compactTool(found({ description: 'word '.repeat(100) })).purpose).toHaveLength(PURPOSE_MAX);
    expect(compactTool(found({ description: '查询天气。返回温度' })).purpose).toBe('查询天气。');
  });

  it('renders one line a model can read', () => {
    const line = compactLine(compactTool(found({ annotations: { readOnlyHint: true } })));
    expect(line).toBe(
      '- gh__create_issue (gh, read-only): Create a new issue in a GitHub repository. Args: repo: string, ' +
        'labels?: string[], state?: "open"|"closed", milestone?: integer|null, body?: any',
    );
    const none = compactLine(compactTool(found({ inputSchema: { type: 'object' } })));
    expect(none).toMatch(/No arguments\.$/);
  });
});
