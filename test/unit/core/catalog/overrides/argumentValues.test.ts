/** Fixed values and defaults checked against the tool's input schema, each problem naming its field. */
import { describe, expect, it } from 'vitest';
import { argumentProblems } from '../../../../../electron/core/catalog/overrides/argumentValues.js';

const schema = {
  type: 'object' as const,
  properties: {
    path: { type: 'string' },
    limit: { $ref: '#/$defs/count' },
    mode: { enum: ['r', 'w'] },
  },
  required: ['path'],
  $defs: { count: { type: 'integer', minimum: 1 } },
};

describe('argumentProblems', () => {
  it('accepts values that fit, resolving $ref through the schema', () => {
    expect(
      argumentProblems(schema, { path: { fixed: '/notes' }, limit: { default: 3 }, mode: { fixed: 'r' } }),
    ).toEqual([]);
  });

  it('names each field whose value the schema refuses', () => {
    const problems = argumentProblems(schema, {
      path: { fixed: 42 },
      limit: { default: 0 },
      mode: { description: 'x' },
    });
    expect(problems).toEqual([
      { path: 'arguments.path.fixed', message: 'must be string' },
      { path: 'arguments.limit.default', message: 'must be >= 1' },
    ]);
  });

  it('refuses an argument the tool does not take only when its schema allows no others', () => {
    expect(argumentProblems(schema, { other: { fixed: 1 } })).toEqual([]);
    expect(argumentProblems({ ...schema, additionalProperties: false }, { other: { fixed: 1 } })).toEqual([
      { path: 'arguments.other.fixed', message: 'the tool has no argument "other"' },
    ]);
  });
});
