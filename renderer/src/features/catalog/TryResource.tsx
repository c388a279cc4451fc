/**
 * Reads a resource; for a template, fills in its `{variables}` first.
 */
import { useMemo, useState } from 'react';
import type { ErrorData } from '../../../../shared/errors.js';
import type { CatalogEntry, TryResult } from '../../../../shared/model/views.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { ResultView } from '../../components/ResultView.js';
import { useAppStore } from '../../store/context.js';

/** The variable names of a URI template (`{name}`, `{+name}`, `{?a,b}` ...). */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(/\{[+#./;?&]?([^}]+)\}/g))
    for (const name of (match[1] ?? '').split(',')) names.push(name.replace(/\*$|:\d+$/, ''));
  return names;
}

/** Expands simple `{name}` variables (others are replaced with their plain value). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{[+#./;?&]?([^}]+)\}/g, (_, inner: string) =>
    inner
      .split(',')
      .map((name) => encodeURIComponent(values[name.replace(/\*$|:\d+$/, '')] ?? ''))
      .join(','),
  );
}

/** The read panel for a resource or template entry. */
export function TryResource({ entry }: { entry: CatalogEntry }) {
  const variables = useMemo(() => (entry.kind === 'resourceTemplate' ? templateVariables(entry.exposed) : []), [entry]);
  const [values, setValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<TryResult | undefined>();
  const [error, setError] = useState<ErrorData | undefined>();
  const call = useAppStore((s) => s.call);
  const uri = variables.length > 0 ? expandTemplate(entry.exposed, values) : entry.exposed;

  const read = async () => {
    const outcome = await call('catalog.readResource', { uri });
    setError(outcome.ok ? undefined : outcome.error);
    setResult(outcome.ok ? outcome.result : undefined);
  };

  return (
    <form
      className="stack"
      aria-label={`Read ${entry.exposed}`}
      onSubmit={(event) => {
        event.preventDefault();
        void read();
      }}
    >
      {variables.map((name) => (
        <label key={name} className="field">
          {name}
          <input value={values[name] ?? ''} onChange={(e) => setValues({ ...values, [name]: e.target.value })} />
        </label>
      ))}
      <code className="small muted">{uri}</code>
      <div className="row">
        <button type="submit" className="primary">
          Read resource
        </button>
      </div>
      <ErrorNote error={error} title="Read failed" />
      {result && <ResultView result={result} />}
    </form>
  );
}
