/** Endpoint paths: what a request path names, and the paths client entries point at. */
import { describe, expect, it } from 'vitest';
import { endpointPath, parseEndpointPath } from '../../../shared/endpoint.js';

describe('endpoint paths', () => {
  it('names the merged, a server and a profile endpoint, and round-trips odd names', () => {
    expect(parseEndpointPath('/mcp')).toEqual({ kind: 'merged' });
    expect(parseEndpointPath('/servers/github/mcp')).toEqual({ kind: 'server', id: 'github' });
    expect(parseEndpointPath('/profiles/my%20team/mcp')).toEqual({ kind: 'profile', name: 'my team' });
    expect(endpointPath({ kind: 'profile', name: 'a/b' })).toBe('/profiles/a%2Fb/mcp');
    expect(parseEndpointPath(endpointPath({ kind: 'server', id: 'a/b' }))).toEqual({ kind: 'server', id: 'a/b' });
  });

  it('names nothing for other paths or a broken encoding', () => {
    for (const path of ['/', '/mcp/', '/servers/mcp', '/servers/a/b/mcp', '/servers//mcp', '/servers/%E0/mcp', '/ui'])
      expect(parseEndpointPath(path), path).toBeUndefined();
  });
});
