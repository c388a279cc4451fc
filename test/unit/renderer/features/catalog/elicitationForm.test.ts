/**
 * A server's elicitation `requestedSchema` as a form (MCP 2025-11-25
 * client/elicitation): flat primitive properties, single- and multi-select
 * enums with titles (`oneOf`/`anyOf` const + title, legacy `enumNames`),
 * string formats, defaults, required; and the content an accept sends.
 */
import { describe, expect, it } from 'vitest';
import {
  enumChoices,
  fieldsFromSchema,
  initialValues,
  readForm,
} from '../../../../../renderer/src/features/catalog/schemaForm.js';

const requested = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Full name', description: 'Your legal name', minLength: 2 },
    email: { type: 'string', title: 'Email', format: 'email' },
    homepage: { type: 'string', format: 'uri' },
    birthdate: { type: 'string', format: 'date' },
    agree: { type: 'boolean', title: 'Agree', default: false },
    age: { type: 'integer', minimum: 1, maximum: 120, default: 42 },
    score: { type: 'number', default: 3.5 },
    friend: { type: 'string', enum: ['Monica', 'Joey'], default: 'Joey' },
    hero: {
      type: 'string',
      oneOf: [
        { const: 'hero-1', title: 'Superman' },
        { const: 'hero-2', title: 'Wonder Woman' },
      ],
    },
    pet: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'] },
    instruments: {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      items: { type: 'string', enum: ['Guitar', 'Piano', 'Drums'] },
      default: ['Guitar'],
    },
    fish: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'fish-1', title: 'Tuna' },
          { const: 'fish-2', title: 'Salmon' },
        ],
      },
    },
  },
  required: ['name', 'instruments'],
};

describe('elicitation form', () => {
  const fields = fieldsFromSchema(requested);
  const byName = (name: string) => fields.find((field) => field.name === name)!;

  it('gives each property its control kind, title, description and required flag', () => {
    expect(fields.map((field) => [field.name, field.kind])).toEqual([
      ['name', 'string'],
      ['email', 'string'],
      ['homepage', 'string'],
      ['birthdate', 'string'],
      ['agree', 'boolean'],
      ['age', 'integer'],
      ['score', 'number'],
      ['friend', 'enum'],
      ['hero', 'enum'],
      ['pet', 'enum'],
      ['instruments', 'multi-enum'],
      ['fish', 'multi-enum'],
    ]);
    expect(byName('name')).toMatchObject({ title: 'Full name', description: 'Your legal name', required: true });
    expect(byName('email').required).toBe(false);
  });

  it('labels titled choices by their title and sends their const', () => {
    expect(byName('hero')).toMatchObject({ choices: ['hero-1', 'hero-2'], choiceLabels: ['Superman', 'Wonder Woman'] });
    expect(byName('pet')).toMatchObject({ choices: ['pet-1', 'pet-2'], choiceLabels: ['Cats', 'Dogs'] });
    expect(byName('fish')).toMatchObject({ choices: ['fish-1', 'fish-2'], choiceLabels: ['Tuna', 'Salmon'] });
    expect(enumChoices({ type: 'string' })).toBeUndefined();
  });

  it('starts from the defaults', () => {
    expect(initialValues(fields)).toMatchObject({
      name: '',
      agree: false,
      age: '42',
      score: '3.5',
      friend: 'Joey',
      hero: '',
      instruments: ['Guitar'],
      fish: [],
    });
  });

  it('reads accepted content with typed values, leaving out empty optional fields', () => {
    const values = { ...initialValues(fields), name: 'Ada', hero: 'hero-2', fish: ['fish-2'], agree: true };
    expect(readForm(fields, values)).toEqual({
      arguments: {
        name: 'Ada',
        agree: true,
        age: 42,
        score: 3.5,
        friend: 'Joey',
        hero: 'hero-2',
        instruments: ['Guitar'],
        fish: ['fish-2'],
      },
      errors: {},
    });
  });

  it('names what is wrong with each field', () => {
    const values = {
      ...initialValues(fields),
      name: 'A',
      email: 'not-an-email',
      homepage: 'no scheme',
      birthdate: '01/02/2000',
      age: '200',
      instruments: ['Guitar', 'Piano', 'Drums'],
    };
    expect(readForm(fields, values).errors).toEqual({
      name: 'must be at least 2 characters',
      email: 'must be an email address',
      homepage: 'must be a URL (such as https://example.com)',
      birthdate: 'must be a date (YYYY-MM-DD)',
      age: 'must be at most 120',
      instruments: 'takes at most 2 choices',
    });
    expect(readForm(fields, { ...initialValues(fields), name: 'Ada', instruments: [] }).errors).toEqual({
      instruments: 'is required',
    });
  });
});
