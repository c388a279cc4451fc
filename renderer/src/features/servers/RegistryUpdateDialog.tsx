/**
 * Updating a backend added from a registry: the dialog first asks the core
 * what the update would change (`registry.update` with `dryRun`: version,
 * command line, URL, env and header names added or removed), and applies it
 * only when the user says so; the core checks the new entry (connect and
 * list) before saving, and its error shows here.
 */
import { useEffect, useState } from 'react';
import type { RegistryUpdatePlanView } from '../../../../shared/model/registryViews.js';
import { Dialog } from '../../components/Dialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';

const FIELD_LABEL: Record<string, string> = {
  version: 'Version',
  command: 'Command',
  args: 'Arguments',
  url: 'URL',
  type: 'Transport',
  env: 'Environment variables',
  headers: 'Headers',
};

/** The changes of `plan`, one row each. */
function Changes({ plan }: { plan: RegistryUpdatePlanView }) {
  if (plan.changes.length === 0) return <p>Nothing changes: {plan.id} is up to date.</p>;
  return (
    <dl className="changes" aria-label="What changes">
      {plan.changes.map((change) => (
        <div key={change.field}>
          <dt>{FIELD_LABEL[change.field] ?? change.field}</dt>
          <dd>
            {change.added || change.removed ? (
              <>
                {(change.added ?? []).map((name) => (
                  <div key={`+${name}`}>added: {name}</div>
                ))}
                {(change.removed ?? []).map((name) => (
                  <div key={`-${name}`}>removed: {name}</div>
                ))}
              </>
            ) : (
              <>
                <code>{change.from}</code> → <code>{change.to}</code>
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The update dialog of backend `id`. */
export function RegistryUpdateDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const call = useAppStore((s) => s.call);
  const [plan, setPlan] = useState<RegistryUpdatePlanView | undefined>();
  const preview = useOutcome();
  const apply = useOutcome();
  const runPreview = preview.run;
  useEffect(() => {
    void runPreview(async () => {
      const outcome = await call('registry.update', { id, dryRun: true });
      if (outcome.ok) setPlan(outcome.result);
      return outcome;
    }, 'preview');
  }, [call, id, runPreview]);

  const confirm = async () => {
    const outcome = await apply.run(() => call('registry.update', { id }), 'apply');
    if (outcome?.ok) onClose();
  };

  return (
    <Dialog title={`Update ${id}`} onClose={onClose}>
      {preview.busy && <p className="muted">Asking the registry…</p>}
      <ErrorNote error={preview.error} title="Cannot update" />
      {plan && (
        <p>
          From <strong>{plan.from}</strong> to <strong>{plan.to}</strong>. Switchboard starts the new version and lists
          its tools before saving it.
        </p>
      )}
      {plan && <Changes plan={plan} />}
      <ErrorNote error={apply.error} title="Not updated" />
      <div className="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={!plan || plan.changes.length === 0 || apply.busy}
          onClick={() => void confirm()}
        >
          {apply.busy ? 'Updating…' : 'Apply update'}
        </button>
      </div>
    </Dialog>
  );
}
