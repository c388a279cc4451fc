/**
 * The servers behind Switchboard: one card each, with health and actions.
 */
import type { BackendView } from '../../../../shared/model/views.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useAppStore } from '../../store/context.js';
import { AwaitingReviewPanel } from '../reviews/AwaitingReviewPanel.js';
import { AddedNote } from './AddedNote.js';
import { BackendCard } from './BackendCard.js';
import { useRegistryUpdates } from './RegistrySource.js';
import { SandboxPackagesNote } from './SandboxPackagesNote.js';

/** The backend whose last start took longest, for "slowest: github, 8.2 s". */
export function slowestStart(list: readonly BackendView[]): { id: string; seconds: string } | undefined {
  let slowest: BackendView | undefined;
  for (const backend of list) {
    if (backend.health.startMs !== undefined && backend.health.startMs > (slowest?.health.startMs ?? -1)) {
      slowest = backend;
    }
  }
  return slowest && { id: slowest.health.id, seconds: (slowest.health.startMs! / 1000).toFixed(1) };
}

/** The Servers screen. */
export function BackendsScreen() {
  const backends = useAppStore((s) => s.backends);
  const endpoint = useAppStore((s) => s.info.data?.endpointUrl);
  const setScreen = useAppStore((s) => s.setScreen);
  const added = useAppStore((s) => s.added);
  const list = backends.data ?? [];
  const up = list.filter((b) => b.health.status === 'up').length;
  const idle = list.filter((b) => b.health.status === 'idle').length;
  const slowest = slowestStart(list);
  const updates = useRegistryUpdates(list);
  return (
    <>
      <header className="screen-head">
        <div>
          <h1>Servers</h1>
          <p>
            {/* The one live region of the screen: the cards' badges are not (each flap would be announced). */}
            <span role="status">
              {list.length === 0 ? 'No servers yet.' : `${up} of ${list.length} up${idle > 0 ? `, ${idle} idle` : ''}`}
            </span>
            {slowest && <span className="muted">{` · slowest: ${slowest.id}, ${slowest.seconds} s`}</span>}
            {endpoint && (
              <>
                {' · serving '}
                <code>{endpoint}</code>
              </>
            )}
          </p>
        </div>
        <button type="button" className="primary" onClick={() => setScreen('add')}>
          + Add server
        </button>
      </header>
      {added && <AddedNote id={added} />}
      <ErrorNote error={backends.error} title="Could not load servers" />
      <AwaitingReviewPanel />
      {backends.data === undefined && backends.loading && <p className="muted">Loading…</p>}
      {backends.data !== undefined && list.length === 0 && (
        <section className="panel">
          <EmptyState
            title="No servers yet"
            actions={
              <button type="button" className="primary" onClick={() => setScreen('add')}>
                Add your first server
              </button>
            }
          >
            Add one from the list of well-known servers, type a command or URL, or paste the `mcpServers` JSON from
            Claude Desktop or Cursor.
          </EmptyState>
          <SandboxPackagesNote />
        </section>
      )}
      <div className="cards">
        {list.map((backend) => (
          <BackendCard key={backend.health.id} backend={backend} update={updates.get(backend.health.id)} />
        ))}
      </div>
    </>
  );
}
