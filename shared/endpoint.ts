/** Defaults of the local MCP endpoint, the same for the desktop app, `serve`, `connect` and client entries. */

/** The endpoint's usual port: `serve` and the desktop app listen on it (any free port when taken). */
export const DEFAULT_PORT = 47100;
