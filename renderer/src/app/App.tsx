/**
 * The app shell: a connection banner, a banner for calls waiting for approval,
 * the navigation, and the current screen.
 */
import { useAppStore } from '../store/context.js';
import type { ScreenId } from '../store/slices/appSlice.js';
import { AddServerScreen } from '../features/servers/AddServerScreen.js';
import { BackendsScreen } from '../features/servers/BackendsScreen.js';
import { CatalogScreen } from '../features/catalog/CatalogScreen.js';
import { ClientsScreen } from '../features/clients/ClientsScreen.js';
import { AuthorizationScreen } from '../features/authorization/AuthorizationScreen.js';
import { RequestLogScreen } from '../features/log/RequestLogScreen.js';
import { SettingsScreen } from '../features/settings/SettingsScreen.js';
import { ReviewScreen } from '../features/reviews/ReviewScreen.js';
import { ApprovalBanner } from './ApprovalBanner.js';
import { ConnectionBanner } from './ConnectionBanner.js';
import { Navigation } from './Navigation.js';

const SCREENS: Record<ScreenId, () => React.ReactElement> = {
  backends: BackendsScreen,
  add: AddServerScreen,
  catalog: CatalogScreen,
  authorization: AuthorizationScreen,
  clients: ClientsScreen,
  log: RequestLogScreen,
  settings: SettingsScreen,
  review: ReviewScreen,
};

/** The whole UI. */
export function App() {
  const screen = useAppStore((s) => s.screen);
  const Screen = SCREENS[screen];
  return (
    <div className="app">
      <div className="app-banner">
        <ConnectionBanner />
        <ApprovalBanner />
      </div>
      <Navigation />
      <main className="main" id="main">
        <Screen />
      </main>
    </div>
  );
}
