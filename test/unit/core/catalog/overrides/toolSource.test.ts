/** The definition the model sees of a tool under its override, and of a prompt or resource offered as a tool. */
import { describe, expect, it } from 'vitest';
import { exposedTool } from '../../../../../electron/core/catalog/overrides/toolSource.js';

const tool = {
  name: 'read_file',
  description: 'Reads',
  annotations: { destructiveHint: false },
  inputSchema: { type: 'object' as const, properties: { path: { type: 'string' } }, required: ['path'] },
};

describe('exposedTool', () => {
  it("applies title, description, annotations (over the server's) and arguments under the given name", () => {
    const out = exposedTool(
      { via: 'tool', tool },
      {
        title: 'Read',
        description: 'Reads a note',
        annotations: { readOnlyHint: true },
        arguments: { path: { fixed: '/n' } },
      },
      'fs__read_note',
    );
    expect(out).toEqual({
      name: 'fs__read_note',
      title: 'Read',
      description: 'Reads a note',
      annotations: { destructiveHint: false, readOnlyHint: true },
      inputSchema: { type: 'object', properties: {} },
    });
  });

  it("makes a prompt's arguments string parameters and keeps its required ones", () => {
    const prompt = {
      name: 'summarize',
      description: 'Sum up',
      arguments: [{ name: 'topic', description: 'what', required: true }, { name: 'style' }],
    };
    expect(exposedTool({ via: 'prompt', prompt }, undefined, 'fs__summarize')).toEqual({
      name: 'fs__summarize',
      description: 'Sum up',
      inputSchema: {
        type: 'object',
        properties: { topic: { type: 'string', description: 'what' }, style: { type: 'string' } },
        required: ['topic'],
      },
      annotations: { readOnlyHint: true },
    });
  });

  it('offers a resource as a read-only tool without arguments, describing it when the server does not', () => {
    const resource = { uri: 'file:///notes/index.md', name: 'index' };
    expect(exposedTool({ via: 'resource', resource }, { title: 'Index' }, 'fs__index')).toEqual({
      name: 'fs__index',
      title: 'Index',
      description: 'Reads index (file:///notes/index.md).',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
    });
  });
});
