/**
 * Entry point: pick the pipe to the core, build the store, render the app.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { pickClient } from './bridge/pickClient.js';
import { StoreProvider } from './store/context.js';
import { createAppStore } from './store/createAppStore.js';
import './styles/base.css';
import './styles/controls.css';
import './styles/screens.css';
import './styles/access.css';

const { store } = createAppStore(pickClient());
const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </StrictMode>,
);
