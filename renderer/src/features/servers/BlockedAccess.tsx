/**
 * One thing a sandbox refused a server, as a line and its action (issue #37):
 * "blocked by the sandbox: read of ~/.aws/credentials" with an **Allow**
 * button that grants exactly that (`sandbox.grant`: saved on the server, which
 * restarts). The same line on the server's card and under a failed Try-it
 * call, so the refusal reads the same wherever it is met.
 */
import type { SandboxBlock } from '../../../../shared/model/health.js';
import { blockSentence } from '../../../../shared/model/sandboxBlock.js';
import { grantFor } from '../../../../shared/model/sandboxGrants.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';
import { grantLabel } from './sandboxEntry.js';

/** What a host's grant does. */
const NETWORK_TITLE =
  'Adds this host to the server’s list: it then goes out through Switchboard’s proxy (HTTP and HTTPS clients that honour HTTP_PROXY, and TCP clients that tunnel through it), and nowhere else.';

/** The refusals of server `id`, each with Allow unless `granted` says it already is. */
export function BlockedAccessList(props: {
  id: string;
  blocked: readonly SandboxBlock[];
  home?: string | undefined;
  granted?: (block: SandboxBlock) => boolean;
}) {
  const call = useAppStore((s) => s.call);
  const { busy, error, run } = useOutcome();
  const refusals = props.blocked.filter(
    (block, at, all) => all.findIndex((b) => b.kind === block.kind && b.target === block.target) === at,
  );
  if (refusals.length === 0) return null;
  return (
    <>
      <ul className="blocked-list small stack" aria-label={`Refused to ${props.id}`}>
        {refusals.map((block) => (
          <li key={`${block.kind} ${block.target}`} className="row">
            <code>{blockSentence(block, props.home)}</code>
            {!props.granted?.(block) && (
              <button
                type="button"
                disabled={busy}
                aria-label={grantLabel(block)}
                title={block.kind === 'connect' ? NETWORK_TITLE : 'Saved on this server, which restarts with it'}
                onClick={() => void run(() => call('sandbox.grant', { id: props.id, grant: grantFor(block) }), 'grant')}
              >
                Allow
              </button>
            )}
          </li>
        ))}
      </ul>
      {busy && <span className="muted small">Saving and restarting…</span>}
      <ErrorNote error={error} title="Not allowed" />
    </>
  );
}
