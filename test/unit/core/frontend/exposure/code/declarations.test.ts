/**
 * Code mode's declarations: JSON Schema to compact TypeScript, the way a model
 * reads a tool's function (required and optional members, enums, arrays,
 * unions, notes cut to their first sentence, names that are not identifiers).
 */
import { describe, expect, it } from 'vitest';
import {
  accessPath,
  declareTools,
  schemaType,
} from '../../../../../../electron/core/frontend/exposure/code/declarations.js';

describe('declarations', () => {
  it('spells a schema as a TypeScript type', () => {
    expect(
      schemaType({
        type: 'object',
        properties: {
          repo: { type: 'string', description: 'owner/name. More text that is not kept.' },
          labels: { type: 'array', items: { type: 'string' } },
          state: { enum: ['open', 'closed'] },
          count: { type: ['integer', 'null'] },
          'odd-key': { anyOf: [{ type: 'boolean' }, { type: 'object', properties: { a: { type: 'number' } } }] },
        },
        required: ['repo'],
      }),
    ).toBe(
      '{ /** owner/name. */ repo: string; labels?: string[]; state?: "open" | "closed"; count?: number | null; "odd-key"?: boolean | { a?: number } }',
    );
    expect(schemaType({ type: 'object' })).toBe('Record<string, any>');
    expect(schemaType({ type: 'array', items: { type: 'object', properties: { x: { type: 'string' } } } })).toBe(
      'Array<{ x?: string }>',
    );
  });

  it('declares the tools grouped by server, with their notes', () => {
    const declared = declareTools([
      {
        namespace: 'github',
        fn: 'create_issue',
        tool: {
          name: 'github__create_issue',
          description: 'Create an issue. Needs push access.',
          inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
        },
      },
      { namespace: 'github', fn: 'whoami', tool: { name: 'github__whoami', inputSchema: { type: 'object' } } },
    ]);
    expect(declared).toBe(
      [
        'declare const tools: {',
        '  github: {',
        '    /** Create an issue. */',
        '    create_issue(args: { title: string }): Promise<any>;',
        '    whoami(args?: Record<string, any>): Promise<any>;',
        '  };',
        '};',
      ].join('\n'),
    );
  });

  it('reaches names that are not identifiers with brackets', () => {
    expect(accessPath('my-server', 'do.it')).toBe('tools["my-server"]["do.it"]');
    expect(accessPath('gh', 'add')).toBe('tools.gh.add');
  });
});
