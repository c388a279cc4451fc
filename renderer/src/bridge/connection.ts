/**
 * What the UI knows about its pipe to the core, whatever the pipe is.
 */
import type { CoreClient } from '../../../shared/contract.js';

/** `open`: calls go through; `connecting`: first attempt; `reconnecting`: lost, trying again. */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting';

/** A CoreClient that also reports whether it is connected. */
export interface BridgeClient extends CoreClient {
  /** The current state. */
  connectionState(): ConnectionState;
  /** Called on each state change; returns an unsubscribe function. */
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
  /** Stops reconnecting and closes the pipe. */
  close(): void;
}

/** Wraps an always-connected client (the Electron preload) as a BridgeClient. */
export function alwaysOpen(client: CoreClient): BridgeClient {
  return {
    call: client.call.bind(client) as CoreClient['call'],
    on: client.on.bind(client) as CoreClient['on'],
    connectionState: () => 'open',
    onConnectionChange: () => () => undefined,
    close: () => undefined,
  };
}
