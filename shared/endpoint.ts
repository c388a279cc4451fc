/** Defaults of the local MCP endpoint, the same for the desktop app, `serve`, `connect` and client entries. */

/** The endpoint's usual port: `serve` and the desktop app listen on it (any free port when taken). */
export const DEFAULT_PORT = 47100;

/**
 * Which MCP endpoint a path serves: the merged one (`/mcp`), one server's own
 * (`/servers/<id>/mcp`), or one client profile's view (`/profiles/<name>/mcp`).
 */
export type EndpointScope = { kind: 'merged' } | { kind: 'server'; id: string } | { kind: 'profile'; name: string };

/** The path of an endpoint (ids and names are percent-encoded). */
export function endpointPath(scope: EndpointScope): string {
  if (scope.kind === 'server') return `/servers/${encodeURIComponent(scope.id)}/mcp`;
  if (scope.kind === 'profile') return `/profiles/${encodeURIComponent(scope.name)}/mcp`;
  return '/mcp';
}

/** The endpoint a request path names; undefined when it names none (or its encoding is broken). */
export function parseEndpointPath(path: string): EndpointScope | undefined {
  if (path === '/mcp') return { kind: 'merged' };
  const match = /^\/(servers|profiles)\/([^/]+)\/mcp$/.exec(path);
  if (!match) return undefined;
  let segment: string;
  try {
    segment = decodeURIComponent(match[2]!);
  } catch {
    return undefined;
  }
  return match[1] === 'servers' ? { kind: 'server', id: segment } : { kind: 'profile', name: segment };
}
