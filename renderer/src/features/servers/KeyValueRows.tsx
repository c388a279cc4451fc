/**
 * Editable name/value rows (env variables, headers) with a "secret" switch per row.
 */
import { useId } from 'react';
import { FieldError, invalidProps } from '../../components/FieldError.js';
import { renamedRow, type KeyValueRow } from './entryForm.js';
import { secretDestination, useKeychainAvailable } from './SecretStorageChoice.js';

/**
 * The rows of `rows`; `what` names one row ("Variable", "Header"); `field` picks the secret-name rule;
 * `errors` holds a row's problem by its index, shown under that row.
 */
export function KeyValueRows({
  rows,
  onChange,
  what,
  field,
  errors = {},
}: {
  rows: KeyValueRow[];
  onChange: (rows: KeyValueRow[]) => void;
  what: string;
  field: 'env' | 'headers';
  errors?: Record<number, string>;
}) {
  const ids = useId();
  const keychain = useKeychainAvailable();
  const update = (index: number, patch: Partial<KeyValueRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
      <legend className="small muted">{what}s</legend>
      {rows.map((row, index) => (
        <div className="kv-row" key={index}>
          <input
            aria-label={`${what} ${index + 1} name`}
            {...invalidProps(`${ids}-${index}`, errors[index])}
            placeholder="NAME"
            value={row.key}
            onChange={(event) =>
              onChange(rows.map((r, i) => (i === index ? renamedRow(r, event.target.value, field) : r)))
            }
          />
          <input
            aria-label={`${what} ${index + 1} value`}
            type={row.secret ? 'password' : 'text'}
            placeholder={
              row.existingSecret
                ? `stored in keychain (${row.existingSecret}); type to replace`
                : row.hidden
                  ? 'hidden; kept unless you type a new value'
                  : 'value'
            }
            value={row.value}
            onChange={(event) => update(index, { value: event.target.value })}
            {...invalidProps(`${ids}-${index}`, errors[index])}
          />
          <label className="check small" title={`Secret: ${secretDestination(keychain)}`}>
            <input
              type="checkbox"
              role="switch"
              aria-label={`${what} ${index + 1} secret`}
              checked={row.secret}
              onChange={(event) => update(index, { secret: event.target.checked, secretChosen: true })}
            />
            {row.secret ? (keychain ? 'secret (keychain)' : 'secret (no keychain here)') : 'plain'}
          </label>
          <button
            type="button"
            aria-label={`Remove ${what.toLowerCase()} ${index + 1}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            ✕
          </button>
          <FieldError id={`${ids}-${index}`} message={errors[index]} />
        </div>
      ))}
      <div>
        <button type="button" onClick={() => onChange([...rows, { key: '', value: '', secret: false }])}>
          + Add {what.toLowerCase()}
        </button>
      </div>
    </fieldset>
  );
}
