/**
 * The Learn permissions panel's call lines (LearnPermissions.tsx): a tool
 * name alone, or followed by its JSON object arguments; anything else is
 * said back, not sent.
 */
import { describe, expect, it } from 'vitest';
import { parseCallLine } from '../../../../../renderer/src/features/servers/LearnPermissions.js';

describe('parseCallLine', () => {
  it('takes a tool alone, or with JSON object arguments', () => {
    expect(parseCallLine('read_graph')).toEqual({ name: 'read_graph', arguments: {} });
    expect(parseCallLine('  write_file {"path":"/x","content":"a b"}  ')).toEqual({
      name: 'write_file',
      arguments: { path: '/x', content: 'a b' },
    });
  });

  it('says what is wrong with anything else', () => {
    expect(parseCallLine('write_file {nope}')).toBe('the arguments of write_file must be a JSON object');
    expect(parseCallLine('write_file [1]')).toBe('"write_file [1]" is not a tool name followed by JSON arguments');
  });
});
