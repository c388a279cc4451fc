/**
 * The self-service page: what a person who is not an administrator gets in
 * gateway mode, instead of the management UI. Who they are (as the identity
 * provider says, and the profile that serves them), what they can use (each
 * server's tools, marked where a tool needs a scope or asks first), their
 * connections to per-caller servers (sign in, revoke) and their own recent
 * calls. It talks to the core only through the `me.*` methods, which the
 * bridge answers for this person alone.
 */
import { useCallback, useEffect, useState } from 'react';
import type { CoreClient } from '../../../../shared/contract.js';
import type { ErrorData } from '../../../../shared/errors.js';
import type { MeView } from '../../../../shared/model/meViews.js';
import type { LogEntryView } from '../../../../shared/model/views.js';
import { DataTable } from '../../components/DataTable.js';
import { ErrorNote } from '../../components/ErrorNote.js';

/** How many of their calls the page shows. */
const CALLS_SHOWN = 50;

const PROFILE_BY: Record<NonNullable<MeView['profile']>['by'], string> = {
  principal: 'bound to you by name',
  group: 'through one of your groups',
  default: "the gateway's default",
  none: 'no profile: nothing is available to you',
};

/**
 * Ends the session (`POST /ui/signout` clears its cookie) and shows the signed-out page. A fetch, not a
 * form: under the page's `Referrer-Policy: no-referrer` a form's POST carries `Origin: null`, which the
 * gateway's Origin check refuses.
 */
async function signOut(): Promise<void> {
  await fetch('/ui/signout', { method: 'POST', credentials: 'same-origin' }).catch(() => undefined);
  window.location.assign('/ui/signedout');
}

/** The page, given the viewer as first fetched. */
export function SelfServicePage({ client, initial }: { client: CoreClient; initial: MeView }) {
  const [me, setMe] = useState(initial);
  const [calls, setCalls] = useState<LogEntryView[]>([]);
  const [error, setError] = useState<ErrorData | undefined>();
  const refresh = useCallback(async () => {
    const [view, recent] = await Promise.all([client.call('me.get'), client.call('me.calls', { limit: CALLS_SHOWN })]);
    if (view.ok) setMe(view.result);
    if (recent.ok) setCalls(recent.result);
    setError(!view.ok ? view.error : !recent.ok ? recent.error : undefined);
  }, [client]);
  useEffect(() => {
    void refresh();
    return client.on('logAppended', () => void refresh());
  }, [client, refresh]);
  const revoke = async (server: string) => {
    const outcome = await client.call('me.connections.revoke', { server });
    if (!outcome.ok) setError(outcome.error);
    await refresh();
  };
  return (
    <main className="main self-service" id="main">
      <div className="screen-head row spread">
        <h1>Your access to MCP Switchboard</h1>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </div>
      <ErrorNote error={error} />
      <WhoYouAre me={me} />
      <WhatYouCanUse me={me} />
      <MyConnections me={me} onRevoke={revoke} />
      <MyCalls calls={calls} />
    </main>
  );
}

function WhoYouAre({ me }: { me: MeView }) {
  const person = me.principal;
  const rows: [string, string][] = person
    ? [
        ['Subject', person.subject],
        ['Email', person.email ?? '—'],
        ['Name', person.name ?? '—'],
        ['Groups', person.groups.length > 0 ? person.groups.join(', ') : 'none'],
        ['Signed in with', person.issuer],
      ]
    : [];
  if (me.profile) {
    rows.push(['Profile', `${me.profile.name ?? me.profile.id} (${PROFILE_BY[me.profile.by]})`]);
  }
  return (
    <section className="panel" aria-label="Who you are">
      <h2>Who you are</h2>
      <DataTable
        label="Who you are"
        headers="hidden"
        rows={rows}
        rowKey={([label]) => label}
        columns={[
          { header: 'What', rowHeader: true, cell: ([label]) => label },
          { header: 'Value', cell: ([, value]) => value },
        ]}
      />
    </section>
  );
}

function WhatYouCanUse({ me }: { me: MeView }) {
  return (
    <section className="panel" aria-label="What you can use">
      <h2>What you can use</h2>
      {me.unbound ? (
        <p role="alert">{me.unbound}</p>
      ) : (
        me.servers.length === 0 && <p className="muted">No server is available to you.</p>
      )}
      {me.servers.map((server) => (
        <div key={server.id} className="stack" aria-label={`Server ${server.id}`} role="group">
          <h3>{server.id}</h3>
          <ul>
            {server.tools.map((tool) => (
              <li key={tool.name}>
                <span className="mono">{tool.name}</span>
                {tool.scopes.length > 0 && <span className="small muted"> needs scope {tool.scopes.join(', ')}</span>}
                {tool.ask && <span className="small muted"> asks you first</span>}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

function MyConnections({ me, onRevoke }: { me: MeView; onRevoke: (server: string) => Promise<void> }) {
  return (
    <section className="panel" aria-label="My connections">
      <h2>My connections</h2>
      {me.connections.length === 0 ? (
        <p className="muted">No server here needs you to sign in to it yourself.</p>
      ) : (
        <DataTable
          label="My connections"
          rows={me.connections}
          rowKey={(connection) => connection.server}
          rowLabel={(connection) => `Connection ${connection.server}`}
          columns={[
            { header: 'Server', cell: (connection) => connection.server },
            {
              header: 'State',
              cell: (connection) => (
                <>
                  <span>{connection.connected ? 'Connected' : 'Not connected'}</span>
                  {connection.expiresAt && (
                    <div className="small muted">until {new Date(connection.expiresAt).toLocaleString()}</div>
                  )}
                </>
              ),
            },
            {
              header: 'Action',
              cell: (connection) =>
                connection.connected ? (
                  <button type="button" onClick={() => void onRevoke(connection.server)}>
                    Revoke
                  </button>
                ) : connection.signInUrl ? (
                  <a href={connection.signInUrl} target="_blank" rel="noreferrer">
                    Sign in to {connection.server}
                  </a>
                ) : null,
            },
          ]}
        />
      )}
    </section>
  );
}

function MyCalls({ calls }: { calls: LogEntryView[] }) {
  return (
    <section className="panel" aria-label="My recent calls">
      <h2>My recent calls</h2>
      {calls.length === 0 ? (
        <p className="muted">No calls yet.</p>
      ) : (
        <DataTable
          label="My recent calls"
          rows={calls}
          rowKey={(call, index) => `${call.time}-${index}`}
          columns={[
            { header: 'Time', className: 'small', cell: (call) => new Date(call.time).toLocaleTimeString() },
            { header: 'Server', cell: (call) => call.backend },
            { header: 'Request', className: 'mono small', cell: (call) => `${call.kind} ${call.item}` },
            { header: 'Outcome', cell: (call) => call.outcome },
          ]}
        />
      )}
    </section>
  );
}
