/**
 * Entry point: pick the pipe to the core, ask who is viewing, and render the
 * app (administrators, the desktop app, the operator's login link) or, for a
 * person signed in through the gateway who is not an administrator, the
 * self-service page alone (the bridge refuses them every other method).
 */
import { StrictMode, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { pickClient } from './bridge/pickClient.js';
import { SelfServicePage } from './features/selfService/SelfServicePage.js';
import { StoreProvider } from './store/context.js';
import { createAppStore } from './store/createAppStore.js';
import './styles/base.css';
import './styles/controls.css';
import './styles/screens.css';
import './styles/access.css';
import './styles/table.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
const client = pickClient();

/** The management UI over `client`. */
function managementUi(): ReactElement {
  const { store } = createAppStore(client);
  return (
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  );
}

void client.call('me.get').then((viewer) => {
  const page =
    viewer.ok && !viewer.result.admin ? <SelfServicePage client={client} initial={viewer.result} /> : managementUi();
  createRoot(root).render(<StrictMode>{page}</StrictMode>);
});
