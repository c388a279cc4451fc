import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/server';
import { argumentsError } from '../../../../../electron/core/frontend/exposure/callArguments.js';

const tool: Tool = {
  name: 'fs__write',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' }, lines: { type: 'array', items: { type: 'string' } } },
    required: ['path'],
    additionalProperties: false,
  },
};
const text = (result: ReturnType<typeof argumentsError>): string =>
  (result?.content[0] as { text: string } | undefined)?.text ?? '';

describe('argumentsError', () => {
  it('lets arguments that fit through', () => {
    expect(argumentsError(tool, { path: '/tmp/a', lines: ['x'] })).toBeUndefined();
  });

  it('names every problem and gives the exact schema, as a tool error', () => {
    const result = argumentsError(tool, { lines: [1], mode: 'w' });
    expect(result?.isError).toBe(true);
    expect(text(result)).toContain("arguments must have required property 'path'");
    expect(text(result)).toContain('arguments.lines.0 must be string');
    expect(text(result)).toContain('must NOT have additional properties ("mode")');
    expect(text(result)).toContain(JSON.stringify(tool.inputSchema));
  });

  it('treats missing arguments as an empty object', () => {
    expect(text(argumentsError(tool, undefined))).toContain("required property 'path'");
  });

  it('leaves a schema it cannot compile to the server', () => {
    const odd: Tool = { name: 'odd', inputSchema: { type: 'object', properties: { a: { $ref: '#/nowhere' } } } };
    expect(argumentsError(odd, { a: 1 })).toBeUndefined();
  });
});
