/**
 * Learn permissions, on a stdio server's card (issue #37): runs the server
 * once recorded (`sandbox.learn`), with the tool calls typed here (one per
 * line, `tool {"json":"args"}`, as Try it would make them) and a window, and
 * shows the smallest grant covering what it did as a diff against its
 * current sandbox (+ added, = granted and used, ? granted but unused). The
 * proposal is editable (one path or host per line) and **Accept** saves it
 * (`sandbox.acceptLearned`), restarting the server under it.
 */
import { useState } from 'react';
import type { LearnDiffLineView, LearnView } from '../../../../shared/model/sandboxViews.js';
import { ErrorCode } from '../../../../shared/errors.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';

/** One call line: `tool` or `tool {"json":"args"}`; undefined with the reason when it is not one. */
export function parseCallLine(line: string): { name: string; arguments: Record<string, unknown> } | string {
  const match = /^(\S+?)(?:\s+(\{[\s\S]*\}))?$/.exec(line.trim());
  if (!match) return `"${line.trim()}" is not a tool name followed by JSON arguments`;
  if (!match[2]) return { name: match[1] as string, arguments: {} };
  try {
    const args = JSON.parse(match[2]) as unknown;
    if (args && typeof args === 'object' && !Array.isArray(args))
      return { name: match[1] as string, arguments: args as Record<string, unknown> };
  } catch {
    // said below
  }
  return `the arguments of ${match[1]} must be a JSON object`;
}

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

function DiffList({ field, items }: { field: string; items: LearnDiffLineView[] }) {
  return (
    <div>
      <strong>{field}</strong>
      {items.length === 0 ? (
        <span className="muted"> nothing beyond the defaults</span>
      ) : (
        <ul className="learn-diff" aria-label={`Learned ${field}`}>
          {items.map((item) => (
            <li key={`${item.mark}${item.value}`} className={item.mark === '+' ? 'tone-ok' : 'muted'}>
              <code>
                {item.mark} {item.value}
              </code>
              {item.mark === '?' && <span className="small"> (granted, not used in this run)</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The button and, once pressed, the panel. */
export function LearnPermissions({ id }: { id: string }) {
  const call = useAppStore((s) => s.call);
  const [open, setOpen] = useState(false);
  const [callsText, setCallsText] = useState('');
  const [windowSeconds, setWindowSeconds] = useState('2');
  const [view, setView] = useState<LearnView | undefined>();
  const [edit, setEdit] = useState({ read: '', write: '', network: '' });
  const [accepted, setAccepted] = useState(false);
  const learning = useOutcome();
  const accepting = useOutcome();

  const learn = async () => {
    const calls: { name: string; arguments: Record<string, unknown> }[] = [];
    for (const line of lines(callsText)) {
      const parsed = parseCallLine(line);
      if (typeof parsed === 'string')
        return learning.setError({ code: ErrorCode.InvalidParams, message: parsed, data: { path: 'calls' } });
      calls.push(parsed);
    }
    const windowMs = Math.max(0, Math.min(600, Number(windowSeconds) || 0)) * 1000;
    setAccepted(false);
    const outcome = await learning.run(() => call('sandbox.learn', { id, calls, windowMs }), 'learn');
    if (!outcome?.ok) return;
    setView(outcome.result);
    const { proposed } = outcome.result;
    setEdit({
      read: proposed.read.join('\n'),
      write: proposed.write.join('\n'),
      network: Array.isArray(proposed.network) ? proposed.network.join('\n') : proposed.network,
    });
  };

  const accept = async () => {
    const hosts = lines(edit.network);
    // One line `none` or `all` is that setting; anything else, a list of hosts.
    const single = hosts.length === 1 ? hosts[0] : undefined;
    const network = hosts.length === 0 || single === 'none' ? 'none' : single === 'all' ? 'all' : hosts;
    const outcome = await accepting.run(
      () => call('sandbox.acceptLearned', { id, read: lines(edit.read), write: lines(edit.write), network }),
      'accept',
    );
    if (outcome?.ok) setAccepted(true);
  };

  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)} title="Run it once recorded and propose what to grant">
        Learn permissions
      </button>
    );
  return (
    <section className="stack panel learn-permissions" aria-label={`Learn permissions of ${id}`}>
      <p className="small muted">
        Runs {id} once with your files visible and its network through a recording proxy (Linux), lists its tools,
        resources and prompts, makes the calls below, and proposes the smallest grant covering what it did. While
        learned it runs with your rights: learn only a server you trust that far.
      </p>
      <label className="stack small">
        Calls to make, one per line: <code>tool {'{"arg":"value"}'}</code>
        <textarea
          aria-label="Calls to make while learning"
          rows={3}
          value={callsText}
          onChange={(event) => setCallsText(event.target.value)}
        />
      </label>
      <div className="row">
        <label className="small">
          Keep it up for{' '}
          <input
            aria-label="Window in seconds"
            type="number"
            min={0}
            max={600}
            value={windowSeconds}
            onChange={(event) => setWindowSeconds(event.target.value)}
          />{' '}
          s
        </label>
        <button type="button" disabled={learning.busy} onClick={() => void learn()}>
          {learning.busy ? 'Learning…' : 'Learn'}
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
      <ErrorNote error={learning.error} title="Could not learn its permissions" />
      {view && (
        <div className="stack" role="region" aria-label={`Proposal for ${id}`}>
          <div className="small">
            Learned in {(view.durationMs / 1000).toFixed(1)} s: {view.listed.tools} tools, {view.listed.resources}{' '}
            resources, {view.listed.prompts} prompts
            {view.calls.map((made) => (
              <div key={made.name} className={made.ok ? 'muted' : 'tone-bad'}>
                {made.name}: {made.ok ? 'ok' : `failed: ${made.error ?? ''}`}
              </div>
            ))}
          </div>
          {view.diff.turnsOn && <div className="tone-warn small">Accepting turns its sandbox on.</div>}
          <DiffList field="read" items={view.diff.read} />
          <DiffList field="write" items={view.diff.write} />
          <DiffList field="network" items={view.diff.network} />
          {view.grant.addresses.length > 0 && (
            <div className="small tone-warn">
              It connected to {view.grant.addresses.join(', ')} by address: only network &quot;all&quot; allows that.
            </div>
          )}
          <details>
            <summary className="small">Edit before accepting</summary>
            {(['read', 'write', 'network'] as const).map((field) => (
              <label key={field} className="stack small">
                {field}
                <textarea
                  aria-label={`Proposed ${field}`}
                  rows={2}
                  value={edit[field]}
                  onChange={(event) => setEdit({ ...edit, [field]: event.target.value })}
                />
              </label>
            ))}
          </details>
          <div className="row">
            <button type="button" disabled={accepting.busy || accepted} onClick={() => void accept()}>
              Accept
            </button>
            {accepting.busy && <span className="muted small">Saving and restarting…</span>}
            {accepted && (
              <span className="tone-ok small" role="status">
                Saved: {id} now runs sandboxed with this grant.
              </span>
            )}
          </div>
          <ErrorNote error={accepting.error} title="Grant not saved" />
        </div>
      )}
    </section>
  );
}
