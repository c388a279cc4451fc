/**
 * Calls a tool from a form generated from its input schema, validated first.
 */
import { useMemo, useState } from 'react';
import type { CatalogEntry, TryResult } from '../../../../shared/model/views.js';
import { useOutcome } from '../../components/useOutcome.js';
import { FieldError, TryFooter } from './TryParts.js';
import { useAppStore } from '../../store/context.js';
import { fieldsFromSchema, initialValues, readForm, type FormField, type FormValues } from './schemaForm.js';

function FieldInput({
  field,
  value,
  onChange,
}: {
  field: FormField;
  value: string | boolean;
  onChange: (v: string | boolean) => void;
}) {
  if (field.kind === 'boolean')
    return <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
  if (field.kind === 'enum')
    return (
      <select value={String(value)} onChange={(e) => onChange(e.target.value)}>
        <option value="">—</option>
        {field.choices?.map((choice) => (
          <option key={String(choice)} value={String(choice)}>
            {String(choice)}
          </option>
        ))}
      </select>
    );
  if (field.kind === 'string-array' || field.kind === 'json')
    return <textarea value={String(value)} onChange={(e) => onChange(e.target.value)} rows={4} />;
  return (
    <input
      type={field.kind === 'string' ? 'text' : 'number'}
      step={field.kind === 'integer' ? 1 : 'any'}
      value={String(value)}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

const HINT: Partial<Record<FormField['kind'], string>> = {
  'string-array': 'One item per line.',
  json: 'JSON.',
};

/** The try-it form for a tool entry. */
export function TryTool({ entry }: { entry: CatalogEntry }) {
  const fields = useMemo(() => fieldsFromSchema(entry.inputSchema), [entry.inputSchema]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<TryResult | undefined>();
  const { busy, error, run } = useOutcome();
  const call = useAppStore((s) => s.call);
  // As the profile the catalog is seen as: its rules apply, and a denied tool says so.
  const profile = useAppStore((s) => s.catalogProfile);

  const submit = async () => {
    const reading = readForm(fields, values);
    setErrors(reading.errors);
    if (Object.keys(reading.errors).length > 0) return;
    const outcome = await run(() =>
      call('catalog.callTool', {
        name: entry.exposed,
        arguments: reading.arguments,
        ...(profile !== '*' ? { profile } : {}),
      }),
    );
    if (outcome) setResult(outcome.ok ? outcome.result : undefined);
  };

  return (
    <form
      className="stack"
      aria-label={`Call ${entry.exposed}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {fields.map((field) => (
        <label key={field.name} className={field.kind === 'boolean' ? 'check' : 'field'}>
          {field.kind === 'boolean' && (
            <FieldInput
              field={field}
              value={values[field.name] ?? false}
              onChange={(v) => setValues({ ...values, [field.name]: v })}
            />
          )}
          <span>
            {field.name}
            {field.required && <span aria-hidden="true"> *</span>}
          </span>
          {field.kind !== 'boolean' && (
            <FieldInput
              field={field}
              value={values[field.name] ?? ''}
              onChange={(v) => setValues({ ...values, [field.name]: v })}
            />
          )}
          {(field.description || HINT[field.kind]) && (
            <span className="help">{[field.description, HINT[field.kind]].filter(Boolean).join(' ')}</span>
          )}
          <FieldError name={field.name} message={errors[field.name]} />
        </label>
      ))}
      <TryFooter
        busy={busy}
        label="Call tool"
        busyLabel="Calling…"
        error={error}
        errorTitle="Call failed"
        result={result}
      />
    </form>
  );
}
