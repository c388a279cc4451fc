/**
 * Editable name/value rows (env variables, headers) with a "secret" switch per row.
 */
import type { KeyValueRow } from './entryForm.js';

/** The rows of `rows`; `what` names one row ("Variable", "Header"). */
export function KeyValueRows({
  rows,
  onChange,
  what,
}: {
  rows: KeyValueRow[];
  onChange: (rows: KeyValueRow[]) => void;
  what: string;
}) {
  const update = (index: number, patch: Partial<KeyValueRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
      <legend className="small muted">{what}s</legend>
      {rows.map((row, index) => (
        <div className="kv-row" key={index}>
          <input
            aria-label={`${what} ${index + 1} name`}
            placeholder="NAME"
            value={row.key}
            onChange={(event) => update(index, { key: event.target.value })}
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
          />
          <label className="check small">
            <input
              type="checkbox"
              checked={row.secret}
              onChange={(event) => update(index, { secret: event.target.checked })}
            />
            secret
          </label>
          <button
            type="button"
            aria-label={`Remove ${what.toLowerCase()} ${index + 1}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            ✕
          </button>
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
