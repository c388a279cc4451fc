/**
 * Which 2025-era session a Streamable HTTP backend answered HTTP 404 to (it
 * no longer knows it: MCP 2025-11-25, Streamable HTTP, "Session Management").
 * A request's own 404 reaches its caller as an error; the listen stream's GET
 * has no caller (the SDK only retries it a few times and gives up), so the
 * `fetch` under the transport says which session it carried, and the
 * connection opens a new one (connection/sessionRenewal.ts). Only a 404 costs
 * anything here.
 */

/** Told the session id (and the HTTP method) of each request answered 404. */
export type OnSessionNotFound = (sessionId: string, method: string) => void;

/** `fetch`, telling `onNotFound` about each 404 to a request that carried a session id. */
export function reportingSessionNotFound(
  fetch: typeof globalThis.fetch,
  onNotFound: OnSessionNotFound,
): typeof globalThis.fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    if (response.status === 404) {
      const sessionId = new Headers(init?.headers).get('mcp-session-id');
      if (sessionId) onNotFound(sessionId, init?.method ?? 'GET');
    }
    return response;
  }) as typeof globalThis.fetch;
}
