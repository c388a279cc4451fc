/**
 * The endpoint URL to copy, and how to connect a client by hand.
 */
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { countHttpSessions } from '../../../../shared/model/sessionCount.js';
import { useAppStore, useShown } from '../../store/context.js';

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
          {!info.data?.keychain.available && (
            <p className="note tone-warn small">
              The OS keychain is not available{info.data?.keychain.reason ? `: ${info.data.keychain.reason}` : ''}.
              Secrets cannot be stored until it is.
            </p>
          )}
        </div>
      )}
    </section>
  );
}
