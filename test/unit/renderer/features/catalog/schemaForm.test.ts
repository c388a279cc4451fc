/**
 * The try-it form generated from a tool's JSON Schema, and its validation
 * (a CSP-safe validator for the subset the form produces).
 */
import { describe, expect, it } from 'vitest';
import { fieldsFromSchema, initialValues, readForm } from '../../../../../renderer/src/features/catalog/schemaForm.js';

const schema = {
  type: 'object',
  properties: {
    message: { type: 'string', description: 'What to echo', minLength: 2, pattern: '^[a-z ]+$' },
    count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    ratio: { type: 'number', exclusiveMaximum: 1 },
    loud: { type: 'boolean' },
    color: { type: 'string', enum: ['red', 'green'] },
    level: { enum: [1, 2, 3] },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
    options: { type: 'object', properties: { a: { type: 'number' } } },
    anything: {},
  },
  required: ['message', 'count'],
};

describe('schema form', () => {
  it('maps each property to an input kind, in declaration order, with required and description', () => {
    const fields = fieldsFromSchema(schema);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['message', 'string', true],
      ['count', 'integer', true],
      ['ratio', 'number', false],
      ['loud', 'boolean', false],
      ['color', 'enum', false],
      ['level', 'enum', false],
      ['tags', 'string-array', false],
      ['options', 'json', false],
      ['anything', 'json', false],
    ]);
    expect(fields[0]?.description).toBe('What to echo');
    expect(fields[5]?.choices).toEqual([1, 2, 3]);
    expect(fieldsFromSchema(undefined)).toEqual([]);
  });

  it('starts from the schema defaults', () => {
    const values = initialValues(fieldsFromSchema(schema));
    expect(values['count']).toBe('3');
    expect(values['loud']).toBe(false);
    expect(values['message']).toBe('');
  });

  it('builds typed arguments and leaves out empty optional fields', () => {
    const fields = fieldsFromSchema(schema);
    const reading = readForm(fields, {
      ...initialValues(fields),
      message: 'hello there',
      ratio: '0.5',
      loud: true,
      level: '2',
      tags: 'a\n\n b \n',
      options: '{"a": 1}',
    });
    expect(reading.errors).toEqual({});
    expect(reading.arguments).toEqual({
      message: 'hello there',
      count: 3,
      ratio: 0.5,
      loud: true,
      level: 2,
      tags: ['a', 'b'],
      options: { a: 1 },
    });
  });

  it('reports every problem by field before anything is sent', () => {
    const fields = fieldsFromSchema(schema);
    const reading = readForm(fields, {
      message: 'X',
      count: '2.5',
      ratio: '1',
      color: 'blue',
      tags: 'a\nb\nc',
      options: '[1]',
      anything: '{not json',
    });
    expect(reading.errors).toEqual({
      message: 'must be at least 2 characters',
      count: 'must be a whole number',
      ratio: 'must be less than 1',
      color: 'must be one of the listed values',
      tags: 'takes at most 2 items',
      options: 'must be JSON of type object',
      anything: 'must be valid JSON',
    });
    expect(readForm(fields, { message: '', count: '' }).errors).toMatchObject({
      message: 'is required',
      count: 'is required',
    });
    expect(readForm(fields, { message: 'NO CAPS', count: '11' }).errors).toEqual({
      message: 'must match ^[a-z ]+$',
      count: 'must be at most 10',
    });
  });
});
