/**
 * A tool's input schema as a table: name, type, required, description.
 */
import { DataTable } from '../../components/DataTable.js';
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
    <DataTable
      label="Input schema"
      rows={fields}
      rowKey={(field) => field.name}
      columns={[
        { header: 'Name', className: 'mono', cell: (field) => field.name },
        { header: 'Type', cell: (field) => describeType(field.schema) },
        { header: 'Required', cell: (field) => (field.required ? 'required' : 'optional') },
        { header: 'Description', cell: (field) => field.description ?? '' },
      ]}
    />
  );
}
