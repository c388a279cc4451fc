/**
 * How clients reach Switchboard: the endpoint, client apps to install into or
 * import from, skills written into the clients that read them from disk, connected sessions, people signed in to per-caller servers,
 * client profiles with tokens, and the config file's kept copies (the request log has its own screen).
 */
import { ClientAppsPanel } from './ClientAppsPanel.js';
import { ConfigBackupsPanel } from './ConfigBackupsPanel.js';
import { EndpointPanel } from './EndpointPanel.js';
import { PeopleConnectionsPanel } from './PeopleConnectionsPanel.js';
import { ProfilesPanel } from './ProfilesPanel.js';
import { SessionsPanel } from './SessionsPanel.js';
import { SkillsInstallPanel } from './SkillsInstallPanel.js';

/** The Clients screen. */
export function ClientsScreen() {
  return (
    <>
      <header className="screen-head">
        <div>
          <h1>Clients</h1>
          <p>Connect Claude, Cursor, VS Code and other MCP clients to the one endpoint.</p>
        </div>
      </header>
      <EndpointPanel />
      <ClientAppsPanel />
      <SkillsInstallPanel />
      <SessionsPanel />
      <PeopleConnectionsPanel />
      <ProfilesPanel />
      <ConfigBackupsPanel />
    </>
  );
}
