/** The input schema the model sees: fixed arguments gone, defaults written in and no longer required. */
import { describe, expect, it } from 'vitest';
import { overriddenSchema } from '../../../../../electron/core/catalog/overrides/argumentSchema.js';

const schema = {
  type: 'object' as const,
  properties: { path: { type: 'string' }, encoding: { type: 'string', description: 'enc' }, n: { type: 'number' } },
  required: ['path', 'encoding', 'n'],
};

describe('overriddenSchema', () => {
  it('hides a fixed argument, defaults another, describes a third; the original is unchanged', () => {
    const before = structuredClone(schema);
    const out = overriddenSchema(schema, {
      path: { fixed: '/x' },
      encoding: { default: 'utf8' },
      n: { description: 'how many' },
    });
    expect(out).toEqual({
      type: 'object',
      properties: {
        encoding: { type: 'string', description: 'enc', default: 'utf8' },
        n: { type: 'number', description: 'how many' },
      },
      required: ['n'],
    });
    expect(schema).toEqual(before);
  });

  it('drops `required` once nothing is left in it', () => {
    const out = overriddenSchema({ type: 'object', properties: { a: {} }, required: ['a'] }, { a: { fixed: 1 } });
    expect(out).toEqual({ type: 'object', properties: {} });
  });
});
