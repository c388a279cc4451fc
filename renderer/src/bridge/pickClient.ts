/**
 * Picks the pipe to the core at start: the Electron preload's
 * `window.switchboard` when present, else a WebSocket to this page's origin.
 */
import type { CoreClient } from '../../../shared/contract.js';
import { alwaysOpen, type BridgeClient } from './connection.js';
import { bridgeUrlFor, createWsClient } from './wsClient.js';

declare global {
  interface Window {
    /** Set by the Electron preload (contextBridge); absent in a browser. */
    switchboard?: CoreClient;
  }
}

/** The client for this window. */
export function pickClient(win: Window = window): BridgeClient {
  if (win.switchboard) return alwaysOpen(win.switchboard);
  return createWsClient(bridgeUrlFor(win.location));
}
