/**
 * A tool's input schema as a table: name, type, required, description.
 */
import { fieldsFromSchema, schemaType } from './schemaForm.js';

/** Human-readable type of a property schema. */
export function describeType(schema: Record<string, unknown>): string {
  if (Array.isArray(schema['enum'])) return `one of ${schema['enum'].map((v) => JSON.stringify(v)).join(', ')}`;
  const type = schemaType(schema) ?? 'any';
  if (type === 'array' && typeof schema['items'] === 'object' && schema['items'] !== null)
    return `array of ${schemaType(schema['items'] as Record<string, unknown>) ?? 'any'}`;
  return type;
}

/** The table for `schema` (a note when it takes no input). */
export function SchemaTable({ schema }: { schema: Record<string, unknown> | undefined }) {
  const fields = fieldsFromSchema(schema);
  if (fields.length === 0) return <p className="muted">Takes no arguments.</p>;
  return (
    <table className="table" aria-label="Input schema">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Type</th>
          <th scope="col">Required</th>
          <th scope="col">Description</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((field) => (
          <tr key={field.name}>
            <td className="mono">{field.name}</td>
            <td>{describeType(field.schema)}</td>
            <td>{field.required ? 'required' : 'optional'}</td>
            <td>{field.description ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
