/**
 * Gets a prompt with its arguments.
 */
import { useState } from 'react';
import type { ErrorData } from '../../../../shared/errors.js';
import type { CatalogEntry, TryResult } from '../../../../shared/model/views.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { ResultView } from '../../components/ResultView.js';
import { useAppStore } from '../../store/context.js';

/** The try-it form for a prompt entry. */
export function TryPrompt({ entry }: { entry: CatalogEntry }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState<string[]>([]);
  const [result, setResult] = useState<TryResult | undefined>();
  const [error, setError] = useState<ErrorData | undefined>();
  const call = useAppStore((s) => s.call);
  const args = entry.arguments ?? [];

  const submit = async () => {
    const lacking = args.filter((a) => a.required && !values[a.name]?.trim()).map((a) => a.name);
    setMissing(lacking);
    if (lacking.length > 0) return;
    const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
    const outcome = await call('catalog.getPrompt', { name: entry.exposed, arguments: filled });
    setError(outcome.ok ? undefined : outcome.error);
    setResult(outcome.ok ? outcome.result : undefined);
  };

  return (
    <form
      className="stack"
      aria-label={`Get ${entry.exposed}`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {args.length === 0 && <p className="muted">Takes no arguments.</p>}
      {args.map((arg) => (
        <label key={arg.name} className="field">
          <span>
            {arg.name}
            {arg.required && <span aria-hidden="true"> *</span>}
          </span>
          <input
            value={values[arg.name] ?? ''}
            onChange={(e) => setValues({ ...values, [arg.name]: e.target.value })}
          />
          {arg.description && <span className="help">{arg.description}</span>}
          {missing.includes(arg.name) && (
            <span className="field-error" role="alert">
              {arg.name} is required
            </span>
          )}
        </label>
      ))}
      <div className="row">
        <button type="submit" className="primary">
          Get prompt
        </button>
      </div>
      <ErrorNote error={error} title="Failed" />
      {result && <ResultView result={result} />}
    </form>
  );
}
