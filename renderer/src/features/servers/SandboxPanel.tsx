/**
 * A stdio server's sandbox on its card (issue #25): what it runs under, in
 * plain words ("Sandboxed (bubblewrap): …", "Not sandboxed: runs with your
 * rights", "Sandbox unavailable: <reason> — not started"), a switch to turn
 * it on or off, and what the sandbox refused, one line each with a button
 * that grants exactly that. Each change is saved through `backends.update`,
 * which restarts the server with it. **Learn permissions** (LearnPermissions.tsx)
 * proposes a grant from a recorded run.
 */
import type { SandboxBlock } from '../../../../shared/model/health.js';
import type { BackendView } from '../../../../shared/model/views.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';
import { LearnPermissions } from './LearnPermissions.js';
import {
  blockLine,
  entrySandbox,
  grantLabel,
  granted,
  sandboxLine,
  withGrant,
  withSandboxEnabled,
} from './sandboxEntry.js';

const TONE = { on: 'tone-ok', off: 'tone-warn', unavailable: 'tone-bad' } as const;

/** What a host's grant does. */
const NETWORK_TITLE =
  'Adds this host to the server’s list: it then goes out through Switchboard’s proxy (HTTP and HTTPS clients that honour HTTP_PROXY), and nowhere else.';

/** The sandbox section of `backend`'s card (stdio servers with a sandbox in their health). */
export function SandboxPanel({ backend }: { backend: BackendView }) {
  const sandbox = backend.health.sandbox;
  const updateBackend = useAppStore((s) => s.updateBackend);
  const { busy, error, run } = useOutcome();
  if (!sandbox) return null;
  const id = backend.health.id;
  const own = entrySandbox(backend.entry);
  /** On as far as the config says (health says `unavailable` for one that is on but cannot run). */
  const on = sandbox.state !== 'off';
  const save = (entry: Record<string, unknown>, what: string) => run(() => updateBackend(id, entry), what);
  const refusals = sandbox.blocked.filter((block, at, all) => all.findIndex((b) => same(b, block)) === at);

  return (
    <section className="stack sandbox" aria-label={`Sandbox of ${id}`}>
      <div className={`note small ${TONE[sandbox.state]}`} role="status">
        {sandboxLine(sandbox)}
        {own === undefined && <span className="muted"> (the default in Settings; no setting of its own)</span>}
      </div>
      {refusals.length > 0 && (
        <ul className="blocked-list small" aria-label={`Refused to ${id}`}>
          {refusals.map((block) => (
            <li key={`${block.kind} ${block.target}`} className="row">
              <code>{blockLine(block)}</code>
              {!granted(backend.entry, block) && (
                <button
                  type="button"
                  disabled={busy}
                  title={block.kind === 'connect' ? NETWORK_TITLE : 'Saved, and the server restarts with it'}
                  onClick={() => void save(withGrant(backend.entry, block), 'grant')}
                >
                  {grantLabel(block)}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <label className="check">
          <input
            type="checkbox"
            checked={on}
            disabled={busy}
            onChange={(event) => void save(withSandboxEnabled(backend.entry, event.target.checked), 'toggle')}
          />
          Run sandboxed
        </label>
        {busy && <span className="muted small">Saving and restarting…</span>}
      </div>
      <LearnPermissions id={id} />
      <ErrorNote error={error} title="Sandbox not changed" />
    </section>
  );
}

function same(a: SandboxBlock, b: SandboxBlock): boolean {
  return a.kind === b.kind && a.target === b.target;
}
