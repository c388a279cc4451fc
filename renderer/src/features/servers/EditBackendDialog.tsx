/**
 * Editing a backend's command or URL, env or headers, in a dialog.
 */
import { useState } from 'react';
import type { BackendView } from '../../../../shared/model/views.js';
import { Dialog } from '../../components/Dialog.js';
import { useAppStore } from '../../store/context.js';
import { formFromEntry } from './entryForm.js';
import { saveBackend } from './saveBackend.js';
import { ServerForm } from './ServerForm.js';

/** The edit dialog for `backend`. */
export function EditBackendDialog({ backend, onClose }: { backend: BackendView; onClose: () => void }) {
  const [initial] = useState(() => formFromEntry(backend.health.id, backend.entry, backend.values));
  const [form, setForm] = useState(initial);
  const call = useAppStore((s) => s.call);
  const addBackend = useAppStore((s) => s.addBackend);
  const updateBackend = useAppStore((s) => s.updateBackend);
  return (
    <Dialog title={`Edit ${backend.health.id}`} onClose={onClose} dirty={form !== initial} cancel>
      <ServerForm
        form={form}
        onChange={setForm}
        idLocked
        base={backend.entry}
        submitLabel="Save changes"
        onSubmit={async (submit) => {
          const outcome = await saveBackend({ call, addBackend, updateBackend }, { ...submit, mode: 'update' });
          if (!outcome.ok) return outcome.error;
          onClose();
          return undefined;
        }}
      />
    </Dialog>
  );
}
