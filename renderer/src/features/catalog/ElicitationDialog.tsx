/**
 * A server's question during a "try it" call (`elicitation/create`, MCP
 * 2025-11-25 client/elicitation), answered by the person: a form generated
 * from the requested schema (Submit = accept with the content), Decline, or
 * Cancel (also the close button and Escape: dismissed without a choice).
 * URL mode shows the full URL and opens it only when the person agrees.
 */
import { useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import type { TryInputAnswer, TryInputView } from '../../../../shared/model/views.js';
import { Dialog } from '../../components/Dialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';
import { SchemaFields } from './SchemaFields.js';
import { fieldsFromSchema, initialValues, readForm, type FormValues } from './schemaForm.js';

/** The host part of a URL, shown apart so a look-alike link is easier to spot. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The dialog for one waiting elicitation of the call running in this panel. */
export function ElicitationDialog({ input }: { input: TryInputView }) {
  const fields = useMemo(() => fieldsFromSchema(input.requestedSchema), [input.requestedSchema]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [dirty, setDirty] = useState(false);
  const call = useAppStore((s) => s.call);
  const { busy, error, run } = useOutcome();
  const answer = (reply: Omit<TryInputAnswer, 'id'>) =>
    run(() => call('catalog.answerInput', { id: input.id, ...reply }));

  const submit = () => {
    if (input.mode === 'url') {
      if (input.url) window.open(input.url, '_blank', 'noopener,noreferrer');
      void answer({ action: 'accept' });
      return;
    }
    const reading = readForm(fields, values);
    setErrors(reading.errors);
    if (Object.keys(reading.errors).length === 0) void answer({ action: 'accept', content: reading.arguments });
  };

  return createPortal(
    <Dialog title="The server asks for input" onClose={() => void answer({ action: 'cancel' })} dirty={dirty}>
      <form
        className="stack"
        aria-label="Answer the server"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <p>{input.message || 'The server asks you to fill in the fields below.'}</p>
        {input.mode === 'url' ? (
          <div className="stack">
            <p className="small">
              It asks you to open a page on <strong>{hostOf(input.url ?? '')}</strong>:
            </p>
            <code className="mono wrap">{input.url}</code>
          </div>
        ) : (
          <SchemaFields
            fields={fields}
            values={values}
            errors={errors}
            titles
            onChange={(next) => {
              // A field's message goes once it is edited; the others stay until the next Submit.
              setErrors(Object.fromEntries(Object.entries(errors).filter(([name]) => next[name] === values[name])));
              setValues(next);
              setDirty(true);
            }}
          />
        )}
        <ErrorNote error={error} title="The answer was not sent" />
        <div className="actions">
          <button type="button" disabled={busy} onClick={() => void answer({ action: 'cancel' })}>
            Cancel
          </button>
          <button type="button" disabled={busy} onClick={() => void answer({ action: 'decline' })}>
            Decline
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {input.mode === 'url' ? 'Open page' : 'Submit'}
          </button>
        </div>
      </form>
    </Dialog>,
    document.body,
  );
}
