/**
 * The inputs of a form generated from a JSON Schema (see schemaForm.ts): one
 * labelled control per field, its help text and its validation message.
 * Shared by a tool's "try it" form and a server's elicitation form.
 */
import { useId } from 'react';
import { FieldError, invalidProps } from '../../components/FieldError.js';
import type { FormField, FormValue, FormValues } from './schemaForm.js';

const INPUT_TYPE: Record<string, string> = { email: 'email', uri: 'url', date: 'date' };

function FieldInput({
  field,
  value,
  onChange,
  invalid,
}: {
  field: FormField;
  value: FormValue;
  onChange: (v: FormValue) => void;
  /** Ties the control to its error message (aria-invalid, aria-describedby). */
  invalid: ReturnType<typeof invalidProps>;
}) {
  const label = (index: number) => field.choiceLabels?.[index] ?? String(field.choices?.[index]);
  if (field.kind === 'boolean')
    return <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} {...invalid} />;
  if (field.kind === 'enum')
    return (
      <select value={String(value)} onChange={(e) => onChange(e.target.value)} {...invalid}>
        <option value="">—</option>
        {field.choices?.map((choice, index) => (
          <option key={String(choice)} value={String(choice)}>
            {label(index)}
          </option>
        ))}
      </select>
    );
  if (field.kind === 'multi-enum') {
    const picked = Array.isArray(value) ? value : [];
    return (
      <span className="choices">
        {field.choices?.map((choice, index) => (
          <label key={String(choice)} className="check">
            <input
              type="checkbox"
              checked={picked.includes(String(choice))}
              onChange={(e) =>
                onChange(
                  e.target.checked ? [...picked, String(choice)] : picked.filter((item) => item !== String(choice)),
                )
              }
            />
            {label(index)}
          </label>
        ))}
      </span>
    );
  }
  if (field.kind === 'string-array' || field.kind === 'json')
    return <textarea value={String(value)} onChange={(e) => onChange(e.target.value)} rows={4} {...invalid} />;
  const format = field.schema['format'];
  return (
    <input
      type={field.kind === 'string' ? (INPUT_TYPE[String(format)] ?? 'text') : 'number'}
      step={field.kind === 'integer' ? 1 : 'any'}
      value={String(value)}
      onChange={(e) => onChange(e.target.value)}
      {...invalid}
    />
  );
}

const HINT: Partial<Record<FormField['kind'], string>> = {
  'string-array': 'One item per line.',
  json: 'JSON.',
};

/** The fields of a generated form; `titles` labels them by their schema title (elicitation) rather than name. */
export function SchemaFields({
  fields,
  values,
  errors,
  onChange,
  titles = false,
}: {
  fields: readonly FormField[];
  values: FormValues;
  errors: Record<string, string>;
  onChange: (values: FormValues) => void;
  titles?: boolean;
}) {
  const ids = useId();
  return (
    <>
      {fields.map((field, index) => {
        const name = titles ? (field.title ?? field.name) : field.name;
        const errorId = `${ids}-${index}`;
        const message = errors[field.name] ? `${name} ${errors[field.name]}` : undefined;
        const input = (
          <FieldInput
            field={field}
            value={values[field.name] ?? (field.kind === 'boolean' ? false : '')}
            onChange={(v) => onChange({ ...values, [field.name]: v })}
            invalid={field.kind === 'multi-enum' ? {} : invalidProps(errorId, message)}
          />
        );
        // Outside the label, so the message is the field's description, not part of its name.
        const error = <FieldError id={errorId} message={message} />;
        const help = [field.description, HINT[field.kind]].filter(Boolean).join(' ');
        // A group of checkboxes is a fieldset (its legend names the group), not one label.
        if (field.kind === 'multi-enum')
          return (
            <fieldset key={field.name} className="field" aria-describedby={message ? errorId : undefined}>
              <legend>
                {name}
                {field.required && <span aria-hidden="true"> *</span>}
              </legend>
              {input}
              {help && <span className="help">{help}</span>}
              {error}
            </fieldset>
          );
        return (
          <div key={field.name} className="field-wrap">
            <label className={field.kind === 'boolean' ? 'check' : 'field'}>
              {field.kind === 'boolean' && input}
              <span>
                {name}
                {field.required && <span aria-hidden="true"> *</span>}
              </span>
              {field.kind !== 'boolean' && input}
              {help && <span className="help">{help}</span>}
            </label>
            {error}
          </div>
        );
      })}
    </>
  );
}
