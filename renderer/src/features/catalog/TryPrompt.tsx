/**
 * Gets a prompt with its arguments.
 */
import { useMemo, useState } from 'react';
import type { CatalogEntry, TryResult } from '../../../../shared/model/views.js';
import { useOutcome } from '../../components/useOutcome.js';
import { TryFooter } from './TryParts.js';
import { useAppStore } from '../../store/context.js';
import { SchemaFields } from './SchemaFields.js';
import { readForm, type FormField, type FormValues } from './schemaForm.js';
import { useTryCall } from './useTryCall.js';

/** A prompt's arguments as form fields: every one is text, some required. */
export function promptFields(entry: CatalogEntry): FormField[] {
  return (entry.arguments ?? []).map((arg) => ({
    name: arg.name,
    kind: 'string',
    required: arg.required === true,
    ...(arg.description ? { description: arg.description } : {}),
    schema: {},
  }));
}

/** The try-it form for a prompt entry. */
export function TryPrompt({ entry }: { entry: CatalogEntry }) {
  const fields = useMemo(() => promptFields(entry), [entry]);
  const [values, setValues] = useState<FormValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<TryResult | undefined>();
  const { busy, error, run } = useOutcome();
  const call = useAppStore((s) => s.call);
  const { running, start } = useTryCall();

  const submit = async () => {
    if (busy) return;
    const reading = readForm(fields, values);
    setErrors(reading.errors);
    if (Object.keys(reading.errors).length > 0) return;
    const filled = reading.arguments as Record<string, string>;
    const outcome = await run(() =>
      start((callId) => call('catalog.getPrompt', { name: entry.exposed, arguments: filled, callId })),
    );
    if (outcome) setResult(outcome.ok ? outcome.result : undefined);
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
      {fields.length === 0 && <p className="muted">Takes no arguments.</p>}
      <SchemaFields fields={fields} values={values} errors={errors} onChange={setValues} />
      <TryFooter
        busy={busy}
        label="Get prompt"
        busyLabel="Getting…"
        error={error}
        errorTitle="Failed"
        result={result}
        running={running}
      />
    </form>
  );
}
