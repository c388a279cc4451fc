/**
 * Which hosts a sandboxed server's list lets through its proxy: names,
 * wildcards for subdomains, ports, addresses; and how a proxy request names
 * its target.
 */
import { describe, expect, it } from 'vitest';
import { HostList, proxyTarget } from '../../../../../../electron/core/backends/process/sandbox/hostList.js';

describe('a list of hosts', () => {
  const list = new HostList(['api.github.com', '*.example.com:443', '127.0.0.1:8080', '[::1]:9000']);

  it('allows a listed name on any port, and nothing that merely ends like it', () => {
    expect(list.allows('api.github.com', 443)).toBe(true);
    expect(list.allows('API.GitHub.com.', 80)).toBe(true);
    expect(list.allows('evil-api.github.com', 443)).toBe(false);
    expect(list.allows('github.com', 443)).toBe(false);
  });

  it('a wildcard allows subdomains, not the domain itself, and only its port', () => {
    expect(list.allows('cdn.example.com', 443)).toBe(true);
    expect(list.allows('a.b.example.com', 443)).toBe(true);
    expect(list.allows('example.com', 443)).toBe(false);
    expect(list.allows('cdn.example.com', 80)).toBe(false);
    expect(list.allows('notexample.com', 443)).toBe(false);
  });

  it('addresses with their port', () => {
    expect(list.allows('127.0.0.1', 8080)).toBe(true);
    expect(list.allows('127.0.0.1', 8081)).toBe(false);
    expect(list.allows('::1', 9000)).toBe(true);
  });
});

describe('what a proxy request asks for', () => {
  it('CONNECT host:port, or an absolute URL with its scheme’s port', () => {
    expect(proxyTarget('CONNECT', 'api.github.com:443')).toEqual({ host: 'api.github.com', port: 443 });
    expect(proxyTarget('CONNECT', '[::1]:9000')).toEqual({ host: '::1', port: 9000 });
    expect(proxyTarget('GET', 'http://example.com/x')).toEqual({ host: 'example.com', port: 80 });
    expect(proxyTarget('GET', 'https://example.com:8443/')).toEqual({ host: 'example.com', port: 8443 });
    expect(proxyTarget('GET', '/relative')).toBeUndefined();
  });
});
