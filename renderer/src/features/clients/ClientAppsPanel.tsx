/**
 * Client apps Switchboard knows: install into them, uninstall, copy their
 * snippet, or import their servers.
 */
import { useState } from 'react';
import type { ClientAppView } from '../../../../shared/model/views.js';
import type { ErrorData } from '../../../../shared/errors.js';
import { CopyButton } from '../../components/CopyButton.js';
import { DataTable, type Column } from '../../components/DataTable.js';
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

/** What a row shows besides the app itself: the last action's outcome, its snippet. */
interface RowState {
  note?: string[];
  snippet?: string;
  error?: ErrorData;
}

/** The cells of one app (its state lives in the panel, one entry per app). */
function useAppRows() {
  const setInstalled = useAppStore((s) => s.setClientInstalled);
  const call = useAppStore((s) => s.call);
  const { busy, run } = useOutcome();
  const [rows, setRows] = useState<Record<string, RowState>>({});
  const [importing, setImporting] = useState<ClientAppView | undefined>();
  const update = (id: string, state: RowState) => setRows((all) => ({ ...all, [id]: { ...all[id], ...state } }));
  const toggle = async (app: ClientAppView) => {
    const installing = !app.installed;
    const outcome = await run(() => setInstalled(app.id, installing));
    if (outcome)
      update(
        app.id,
        outcome.ok
          ? { note: describeWrite(installing, outcome.result), error: undefined }
          : { note: undefined, error: outcome.error },
      );
  };
  const showSnippet = async (app: ClientAppView) => {
    const outcome = await run(() => call('clients.snippet', { client: app.id }));
    if (outcome)
      update(app.id, outcome.ok ? { snippet: outcome.result.text, error: undefined } : { error: outcome.error });
  };
  const columns: Column<ClientAppView>[] = [
    {
      header: 'App',
      cell: (app) => {
        const row = rows[app.id] ?? {};
        return (
          <>
            <strong>{app.name}</strong>
            <div className="small muted mono">{app.configPath}</div>
            {row.note && (
              <div className="small" role="status">
                {row.note.map((line) => (
                  <div key={line}>{line}</div>
                ))}
              </div>
            )}
            {row.snippet && (
              <div className="stack">
                <pre className="stderr">{row.snippet}</pre>
                <CopyButton text={row.snippet} label={`Copy ${app.name} snippet`} />
              </div>
            )}
            <ErrorNote error={row.error ?? app.problem} />
          </>
        );
      },
    },
    {
      header: 'State',
      cell: (app) =>
        app.installed ? (
          <Badge tone="ok">✓ Installed</Badge>
        ) : app.detected ? (
          <Badge>Found</Badge>
        ) : (
          <Badge>Not found</Badge>
        ),
    },
    {
      header: 'Actions',
      cell: (app) => (
        <div className="row">
          <button type="button" disabled={busy} onClick={() => void toggle(app)}>
            {app.installed ? 'Uninstall' : 'Install'}
          </button>
          <button type="button" disabled={busy} onClick={() => void showSnippet(app)}>
            Snippet
          </button>
          <button type="button" disabled={!app.detected} onClick={() => setImporting(app)}>
            Import…
          </button>
        </div>
      ),
    },
  ];
  return { columns, importing, closeImport: () => setImporting(undefined) };
}

/** The client apps panel. */
export function ClientAppsPanel() {
  const apps = useAppStore((s) => s.apps);
  const { columns, importing, closeImport } = useAppRows();
  useShown('apps');
  return (
    <section className="panel" aria-label="Client apps">
      <h2>Client apps</h2>
      <ErrorNote error={apps.error} />
      {apps.data && apps.data.length === 0 && <p className="muted">No known client apps.</p>}
      {apps.data && apps.data.length > 0 && (
        <DataTable label="Client apps" rows={apps.data} rowKey={(app) => app.id} columns={columns} />
      )}
      {importing && <ImportDialog app={importing} onClose={closeImport} />}
    </section>
  );
}
