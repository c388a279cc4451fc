import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../../../electron/core/platform/config/schema.js';

const gateway = { resource: 'https://mcp.example.com/mcp', authorizationServers: ['https://login.example.com'] };

describe('the gateway section', () => {
  it('is absent from a laptop config, and fills its defaults when present', () => {
    expect(parseConfig({}).config?.gateway).toBeUndefined();
    const { config, problems } = parseConfig({ gateway });
    expect(problems).toEqual([]);
    expect(config?.gateway).toMatchObject({
      algorithms: ['RS256', 'ES256', 'PS256', 'EdDSA'],
      clockSkewSeconds: 60,
      claims: { subject: 'sub', email: 'email', name: 'name', groups: 'groups' },
      requiredScopes: [],
      trustProxy: false,
      jwks: { cacheMaxAgeMs: 600_000, cooldownMs: 30_000 },
    });
  });

  it('names each bad field by its dotted path', () => {
    const { config, problems } = parseConfig({
      gateway: {
        resource: 'https://mcp.example.com/other',
        authorizationServers: ['http://login.example.com'],
        clockSkewSeconds: -1,
        introspection: { clientId: 'gw', clientSecret: { secret: '' } },
        extra: true,
      },
    });
    expect(config).toBeUndefined();
    const paths = problems.map((problem) => problem.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'gateway.resource',
        'gateway.authorizationServers.0',
        'gateway.clockSkewSeconds',
        'gateway.introspection.clientSecret.secret',
        'gateway',
      ]),
    );
    expect(problems.find((problem) => problem.path === 'gateway.authorizationServers.0')?.message).toBe(
      'must be an https URL (http only on loopback)',
    );
  });

  it('accepts a loopback http issuer (a local identity provider)', () => {
    const local = { ...gateway, authorizationServers: ['http://127.0.0.1:8080'] };
    expect(parseConfig({ gateway: local }).problems).toEqual([]);
  });

  it('refuses profiles the policy does not have, and an introspection issuer not listed', () => {
    const clients = { a: { name: 'A' } };
    const bindings = parseConfig({
      gateway,
      policy: { clients, groups: { eng: { profile: 'ghost' } }, principals: { bob: { profile: 'a' } } },
    });
    expect(bindings.problems).toEqual([
      { path: 'policy.groups.eng.profile', message: 'no client profile "ghost" in policy.clients' },
    ]);
    const { problems } = parseConfig({
      gateway: {
        ...gateway,
        defaultProfile: 'nobody',
        introspection: { issuer: 'https://other.example.com', clientId: 'gw', clientSecret: '${GW_SECRET}' },
      },
      policy: { clients },
    });
    expect(problems).toEqual([
      { path: 'gateway.defaultProfile', message: 'no client profile "nobody" in policy.clients' },
      { path: 'gateway.introspection.issuer', message: 'must be one of gateway.authorizationServers' },
    ]);
  });
});
