/**
 * Calls a tool from a form generated from its input schema, validated first;
 * while it runs, its progress, a Cancel button and the server's questions;
 * a call its sandbox refused something says what, with **Allow**.
 */
import { useMemo, useState } from 'react';
import type { CatalogEntry, TryResult } from '../../../../shared/model/views.js';
import { useOutcome } from '../../components/useOutcome.js';
import { TryFooter } from './TryParts.js';
import { useAppStore } from '../../store/context.js';
import { BlockedAccessList } from '../servers/BlockedAccess.js';
import { SchemaFields } from './SchemaFields.js';
import { fieldsFromSchema, initialValues, readForm, type FormValues } from './schemaForm.js';
import { useTryCall } from './useTryCall.js';

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
  const { running, start } = useTryCall();

  const submit = async () => {
    const reading = readForm(fields, values);
    setErrors(reading.errors);
    if (Object.keys(reading.errors).length > 0) return;
    const outcome = await run(() =>
      start((callId) =>
        call('catalog.callTool', {
          name: entry.exposed,
          arguments: reading.arguments,
          callId,
          ...(profile !== '*' ? { profile } : {}),
        }),
      ),
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
      <SchemaFields fields={fields} values={values} errors={errors} onChange={setValues} />
      <TryFooter
        busy={busy}
        label="Call tool"
        busyLabel="Calling…"
        error={error}
        errorTitle="Call failed"
        result={result}
        running={running}
      />
      {result?.sandbox && (
        <BlockedAccessList id={result.sandbox.server} blocked={result.sandbox.blocked} home={result.sandbox.home} />
      )}
    </form>
  );
}
