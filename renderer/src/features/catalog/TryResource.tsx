/**
 * Reads a resource; for a template, fills in its variables first (RFC 6570,
 * the operators the core accepts: `{x}`, `{+x}`, `{#x}`, `{.x}`, `{/x}`, `{?x}`, `{&x}`).
 */
import { useMemo, useState } from 'react';
import type { CatalogEntry, TryResult } from '../../../../shared/model/views.js';
import { expandUriTemplate, uriTemplateVariables } from '../../../../shared/uriTemplate.js';
import { useOutcome } from '../../components/useOutcome.js';
import { TryFooter } from './TryParts.js';
import { useAppStore } from '../../store/context.js';
import { catalogKey } from '../../store/slices/catalogSlice.js';
import { templateValues } from './resourceLinks.js';
import { useTryCall } from './useTryCall.js';

/** The URI to read: the template expanded with the filled-in values (an empty field counts as not given). */
export function expandTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return expandUriTemplate(template, Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '')));
}

/** The read panel for a resource or template entry. */
export function TryResource({ entry }: { entry: CatalogEntry }) {
  const variables = useMemo(
    () => (entry.kind === 'resourceTemplate' ? uriTemplateVariables(entry.exposed) : []),
    [entry],
  );
  // Opened from a resource link: the template's variables as the link's URI had them.
  const linked = useAppStore((s) => s.linkedResource);
  const [values, setValues] = useState<Record<string, string>>(() =>
    linked?.key === catalogKey(entry) && entry.kind === 'resourceTemplate'
      ? templateValues(entry.exposed, linked.uri)
      : {},
  );
  const [result, setResult] = useState<TryResult | undefined>();
  const { busy, error, run } = useOutcome();
  const call = useAppStore((s) => s.call);
  const { running, start } = useTryCall();
  const uri = variables.length > 0 ? expandTemplate(entry.exposed, values) : entry.exposed;

  const read = async () => {
    const outcome = await run(() => start((callId) => call('catalog.readResource', { uri, callId })));
    if (outcome) setResult(outcome.ok ? outcome.result : undefined);
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
      <TryFooter
        busy={busy}
        label="Read resource"
        busyLabel="Reading…"
        error={error}
        errorTitle="Read failed"
        result={result}
        running={running}
      />
    </form>
  );
}
