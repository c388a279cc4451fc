/**
 * The endpoint URL to copy, and how to connect a client by hand.
 */
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { keychainHelp } from '../../../../shared/model/keychainHelp.js';
import { countHttpSessions } from '../../../../shared/model/sessionCount.js';
import { useAppStore, useShown } from '../../store/context.js';

/** Why the keychain is unavailable and what to do, without this machine's paths. */
function KeychainWarning({ reason }: { reason: string | undefined }) {
  const help = keychainHelp(reason);
  return (
    <p className="note tone-warn small" role="note" aria-label="Keychain unavailable">
      The OS keychain is not available: {help.problem}. Secrets cannot be stored until it is. To fix: {help.fix}.
    </p>
  );
}

/** The endpoint panel. */
export function EndpointPanel() {
  const info = useAppStore((s) => s.info);
  const url = info.data?.endpointUrl;
  const sessions = useAppStore((s) => s.sessions.data);
  useShown('sessions');
  return (
    <section className="panel" aria-label="Endpoint">
      <h2>Endpoint</h2>
      <ErrorNote error={info.error} />
      {url && (
        <div className="stack">
          <div className="token-box">
            <code aria-label="Endpoint URL">{url}</code>
            <CopyButton text={url} label="Copy endpoint URL" />
          </div>
          {sessions && (
            <p className="small" aria-label="Live HTTP sessions">
              Sessions: {countHttpSessions(sessions)}
            </p>
          )}
          <p className="muted small">
            Clients send <code>Authorization: Bearer &lt;token&gt;</code>. Install Switchboard into a client below (it
            writes the URL and a token of its own), or create a token under Client profiles and paste it with the URL.
            Clients that only launch commands use <code>mcp-switchboard connect</code>.
          </p>
          {info.data && !info.data.keychain.available && <KeychainWarning reason={info.data.keychain.reason} />}
        </div>
      )}
    </section>
  );
}
