/**
 * One backend: health badge, transport, counts, latest error, restarts,
 * stderr tail, its review state and scan (ReviewBadges.tsx), its sandbox (SandboxPanel.tsx), where it came from (RegistrySource.tsx), and its actions (enable/disable, restart, refresh, edit,
 * remove, authorize / sign out).
 */
import { useState } from 'react';
import type { BackendView } from '../../../../shared/model/views.js';
import { BACKEND_TRANSPORTS } from '../../../../shared/model/transports.js';
import { ConfirmDialog } from '../../components/Dialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { Badge, HealthBadge } from '../../components/HealthBadge.js';
import { timeAgo, timeUntil, useNow } from '../../components/time.js';
import { useOutcome } from '../../components/useOutcome.js';
import { useAppStore } from '../../store/context.js';
import { ToolsOnButton } from '../authorization/ToolsOnButton.js';
import { ReviewBadges } from '../reviews/ReviewBadges.js';
import type { BackendAction } from '../../store/slices/backendsSlice.js';
import { EditBackendDialog } from './EditBackendDialog.js';
import { RegistrySource, sourceOf } from './RegistrySource.js';
import { SandboxPanel } from './SandboxPanel.js';

const AUTH_LABEL = {
  none: 'not used',
  authorized: 'signed in',
  'needs-authorization': 'sign-in needed',
  expired: 'expired',
  refreshing: 'refreshing',
} as const;

/** The card for `backend`; `update` is the registry's newer version, when there is one. */
export function BackendCard({ backend, update }: { backend: BackendView; update?: string | undefined }) {
  const { health } = backend;
  const runBackendAction = useAppStore((s) => s.runBackendAction);
  const call = useAppStore((s) => s.call);
  const { busy, busyWith, error, run } = useOutcome();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [editing, setEditing] = useState(false);
  const [authUrl, setAuthUrl] = useState<string | undefined>();
  // The sign-in link is for this one flow: once the backend leaves needs-authorization (signed in,
  // or anything else), drop it so a later sign-out does not show a stale link.
  const [shownStatus, setShownStatus] = useState(health.status);
  if (shownStatus !== health.status) {
    setShownStatus(health.status);
    if (health.status !== 'needs-authorization') setAuthUrl(undefined);
  }

  const act = (action: BackendAction) => run(() => runBackendAction(health.id, action), action);
  const authorize = () =>
    run(async () => {
      const outcome = await call('backends.authorize', { id: health.id });
      if (outcome.ok) setAuthUrl(outcome.result.authorizationUrl);
      return outcome;
    }, 'authorize');
  const { counts } = health;
  const retrying = !!health.nextRetryAt && health.status === 'down';
  // Relative times tick: every second while a retry counts down, otherwise often enough for "3 min ago".
  const now = useNow(retrying ? 1000 : 15_000, retrying || !!health.lastError);
  // A completed start records its duration, so a server that never came up has none: its "restarts" would mislead.
  const everUp = health.status === 'up' || health.startMs !== undefined;
  const stderrLines = health.stderrTail?.length ?? 0;
  const remote = health.transport !== 'stdio';
  const usesOAuth =
    !!backend.oauth || health.status === 'needs-authorization' || (!!health.auth && health.auth.state !== 'none');
  const source = sourceOf(backend);
  const signedIn =
    backend.oauth?.configured === true || ['authorized', 'expired', 'refreshing'].includes(health.auth?.state ?? '');

  return (
    <article className="card" aria-label={health.id}>
      <div className="row spread">
        <h3>{health.id}</h3>
        <HealthBadge status={health.status} />
      </div>
      <div className="target" title={backend.target}>
        {backend.target}
      </div>
      {source && <RegistrySource id={health.id} source={source} update={update} />}
      <div className="row">
        <Badge>{BACKEND_TRANSPORTS[health.transport].badge}</Badge>
        {health.start === 'on-demand' && (
          <Badge title="Started by its first request, stopped when idle">On demand</Badge>
        )}
        {health.cached && (
          <Badge tone="info" title="Listed from the catalog saved on its last run; it has not answered yet">
            Cached catalog
          </Badge>
        )}
        {health.serverInfo && (
          <span className="small muted">
            {health.serverInfo.name} {health.serverInfo.version}
          </span>
        )}
        {health.auth && health.auth.state !== 'none' && (
          <Badge tone={health.auth.state === 'authorized' ? 'ok' : 'warn'} title={health.auth.reason}>
            OAuth: {AUTH_LABEL[health.auth.state]}
            {health.auth.expiresAt && health.auth.state === 'authorized'
              ? `, until ${new Date(health.auth.expiresAt).toLocaleString()}`
              : ''}
          </Badge>
        )}
      </div>
      <ReviewBadges health={health} />
      <div className="stats" aria-label="Counts">
        <span>
          <b>{counts.tools}</b> tools
        </span>
        <ToolsOnButton backendId={health.id} />
        <span>
          <b>{counts.prompts}</b> prompts
        </span>
        <span>
          <b>{counts.resources}</b> resources
        </span>
        <span>
          <b>{counts.resourceTemplates}</b> templates
        </span>
        {everUp && (
          <span>
            <b>{health.restarts}</b> {health.restarts === 1 ? 'restart' : 'restarts'}
          </span>
        )}
        {health.pid !== undefined && <span>pid {health.pid}</span>}
        {health.principalProcesses !== undefined && <span>{health.principalProcesses} per-person processes</span>}
        {health.startMs !== undefined && <span>started in {(health.startMs / 1000).toFixed(1)} s</span>}
      </div>
      {health.lastError && health.status === 'needs-authorization' ? (
        // Waiting for the user, not failing: say what to do here, not the CLI's wording.
        <div className="note tone-warn small">
          <strong>Sign-in needed</strong>: {health.auth?.reason ?? 'the server requires authorization'}. Use Authorize
          below.
        </div>
      ) : (
        health.lastError && (
          <div className="note tone-bad small">
            <strong>Last error</strong> ({timeAgo(health.lastError.at, now)}): {health.lastError.message}
          </div>
        )
      )}
      {retrying && health.nextRetryAt && (
        <div className="small muted" title={new Date(health.nextRetryAt).toLocaleString()}>
          Next retry {timeUntil(health.nextRetryAt, now)}
        </div>
      )}
      {health.warnings.length > 0 && (
        <ul className="note tone-warn small">
          {health.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
      {health.transport === 'stdio' && <SandboxPanel backend={backend} />}
      {health.transport === 'stdio' && health.stderrTail && stderrLines > 0 && (
        <details>
          <summary>
            stderr ({stderrLines} {stderrLines === 1 ? 'line' : 'lines'})
          </summary>
          <pre className="stderr">{health.stderrTail.join('\n')}</pre>
        </details>
      )}
      <ErrorNote error={error} />
      {authUrl && (
        <p className="small">
          Sign in in the browser window that opened. If none did, open{' '}
          <a href={authUrl} target="_blank" rel="noreferrer">
            the sign-in page
          </a>
          .
        </p>
      )}
      <div className="row" role="group" aria-label={`Actions for ${health.id}`}>
        <button type="button" disabled={busy} onClick={() => void act(backend.enabled ? 'disable' : 'enable')}>
          {backend.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" disabled={busy || !backend.enabled} onClick={() => void act('restart')}>
          {busyWith === 'restart' ? 'Restarting…' : 'Restart'}
        </button>
        <button type="button" disabled={busy || !backend.enabled} onClick={() => void act('refresh')}>
          Refresh
        </button>
        <button type="button" disabled={busy} onClick={() => setEditing(true)}>
          Edit
        </button>
        {remote && usesOAuth && (
          <button type="button" disabled={busy} onClick={() => void authorize()}>
            Authorize
          </button>
        )}
        {remote && signedIn && (
          <button type="button" disabled={busy} onClick={() => void act('signOut')}>
            Sign out
          </button>
        )}
        <button type="button" className="danger" disabled={busy} onClick={() => setConfirmRemove(true)}>
          Remove
        </button>
      </div>
      {confirmRemove && (
        <ConfirmDialog
          title={`Remove ${health.id}?`}
          message="Its tools disappear from every client and its process is stopped. The config entry is deleted."
          confirmLabel="Remove"
          onCancel={() => setConfirmRemove(false)}
          onConfirm={() => {
            setConfirmRemove(false);
            void act('remove');
          }}
        />
      )}
      {editing && <EditBackendDialog backend={backend} onClose={() => setEditing(false)} />}
    </article>
  );
}
