/**
 * Client apps Switchboard knows: install into them, uninstall, copy their
 * snippet, or import their servers.
 */
import { useState } from 'react';
import type { ClientAppView } from '../../../../shared/model/views.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { Badge } from '../../components/HealthBadge.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore, useShown } from '../../store/context.js';
import type { ClientWriteView } from '../../store/slices/clientsSlice.js';
import { ImportDialog } from './ImportDialog.js';

/** What the row says after installing (`installing`) or uninstalling wrote `write`. */
export function describeWrite(installing: boolean, write: ClientWriteView): string[] {
  const lines = [
    !write.changed
      ? `${write.path} was already up to date`
      : `${installing ? 'Written to' : 'Removed from'} ${write.path}` +
        (write.backup ? ` (the previous file is backed up to ${write.backup})` : ''),
  ];
  return [...lines, ...(write.notes ?? [])];
}

function ClientAppRow({ app }: { app: ClientAppView }) {
  const setInstalled = useAppStore((s) => s.setClientInstalled);
  const call = useAppStore((s) => s.call);
  const { busy, error, run } = useOutcome();
  const [note, setNote] = useState<string[] | undefined>();
  const [snippet, setSnippet] = useState<string | undefined>();
  const [importing, setImporting] = useState(false);
  const toggle = async () => {
    const installing = !app.installed;
    const outcome = await run(() => setInstalled(app.id, installing));
    if (outcome) setNote(outcome.ok ? describeWrite(installing, outcome.result) : undefined);
  };
  const showSnippet = async () => {
    const outcome = await run(() => call('clients.snippet', { client: app.id }));
    if (outcome?.ok) setSnippet(outcome.result.text);
  };
  return (
    <tr>
      <td>
        <strong>{app.name}</strong>
        <div className="small muted mono">{app.configPath}</div>
        {note && (
          <div className="small" role="status">
            {note.map((line) => (
              <div key={line}>{line}</div>
            ))}
          </div>
        )}
        {snippet && (
          <div className="stack">
            <pre className="stderr">{snippet}</pre>
            <CopyButton text={snippet} label={`Copy ${app.name} snippet`} />
          </div>
        )}
        <ErrorNote error={error ?? app.problem} />
      </td>
      <td>
        {app.installed ? (
          <Badge tone="ok">✓ Installed</Badge>
        ) : app.detected ? (
          <Badge>Found</Badge>
        ) : (
          <Badge>Not found</Badge>
        )}
      </td>
      <td>
        <div className="row">
          <button type="button" disabled={busy} onClick={() => void toggle()}>
            {app.installed ? 'Uninstall' : 'Install'}
          </button>
          <button type="button" disabled={busy} onClick={() => void showSnippet()}>
            Snippet
          </button>
          <button type="button" disabled={!app.detected} onClick={() => setImporting(true)}>
            Import…
          </button>
        </div>
        {importing && <ImportDialog app={app} onClose={() => setImporting(false)} />}
      </td>
    </tr>
  );
}

/** The client apps panel. */
export function ClientAppsPanel() {
  const apps = useAppStore((s) => s.apps);
  useShown('apps');
  return (
    <section className="panel" aria-label="Client apps">
      <h2>Client apps</h2>
      <ErrorNote error={apps.error} />
      {apps.data && apps.data.length === 0 && <p className="muted">No known client apps.</p>}
      {apps.data && apps.data.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">App</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {apps.data.map((app) => (
              <ClientAppRow key={app.id} app={app} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
