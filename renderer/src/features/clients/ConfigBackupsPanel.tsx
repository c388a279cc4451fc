/**
 * The config file: where it is, and the copies kept before each write (the
 * last 20), any of which can be put back after confirmation. Restoring goes
 * through the core like every other write; the running config then follows
 * the file (its events re-fetch what changed).
 */
import { useCallback, useEffect, useState } from 'react';
import type { ConfigBackupView } from '../../../../shared/model/views.js';
import { ConfirmDialog } from '../../components/Dialog.js';
import { DataTable } from '../../components/DataTable.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { timeAgo } from '../../components/time.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';

/** The config backups panel. */
export function ConfigBackupsPanel() {
  const call = useAppStore((s) => s.call);
  const configPath = useAppStore((s) => s.info.data?.configPath);
  const [backups, setBackups] = useState<ConfigBackupView[] | undefined>();
  const [restoring, setRestoring] = useState<ConfigBackupView | undefined>();
  const [restored, setRestored] = useState<string | undefined>();
  const { busy, error, run } = useOutcome();

  const load = useCallback(async () => {
    const outcome = await run(() => call('config.backups'));
    if (outcome?.ok) setBackups(outcome.result);
  }, [call, run]);

  useEffect(() => {
    void load();
  }, [load]);

  const restore = async (backup: ConfigBackupView) => {
    setRestoring(undefined);
    const outcome = await run(() => call('config.restore', { index: backup.index }));
    if (!outcome?.ok) return;
    setRestored(
      `Restored the copy from ${new Date(backup.savedAt).toLocaleString()}; the file it replaced is kept as the newest copy.`,
    );
    const list = await call('config.backups');
    if (list.ok) setBackups(list.result);
  };

  return (
    <section className="panel" aria-label="Config file">
      <h2>Config file</h2>
      {configPath && (
        <p className="muted small">
          <code>{configPath}</code>. A copy is kept before each change (the last 20).
        </p>
      )}
      <ErrorNote error={error} />
      {restored && (
        <p className="note tone-info small" role="status">
          {restored}
        </p>
      )}
      {backups && backups.length === 0 && <p className="muted">No copies yet: one is kept at the first change.</p>}
      {backups && backups.length > 0 && (
        <DataTable
          label="Config copies"
          rows={backups}
          rowKey={(backup) => backup.path}
          columns={[
            { header: 'Copy', cell: (backup) => (backup.index === 1 ? '1 (newest)' : backup.index) },
            {
              header: 'Replaced',
              cell: (backup) => <span title={backup.savedAt}>{timeAgo(backup.savedAt)}</span>,
            },
            { header: 'Size', cell: (backup) => `${backup.size} bytes` },
            {
              header: 'Actions',
              hiddenHeader: true,
              cell: (backup) => (
                <button
                  type="button"
                  disabled={busy}
                  aria-label={`Restore copy ${backup.index}`}
                  onClick={() => setRestoring(backup)}
                >
                  Restore
                </button>
              ),
            },
          ]}
        />
      )}
      {restoring && (
        <ConfirmDialog
          title={`Restore copy ${restoring.index}?`}
          message="The config file is replaced by this copy and the running servers follow it. The current file is kept as the newest copy, so this can be undone."
          confirmLabel="Restore"
          onCancel={() => setRestoring(undefined)}
          onConfirm={() => void restore(restoring)}
        />
      )}
    </section>
  );
}
