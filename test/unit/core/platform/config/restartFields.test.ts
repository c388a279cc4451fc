import { describe, expect, it } from 'vitest';
import { liveGateway, restartFields } from '../../../../../electron/core/platform/config/restartFields.js';
import { parseConfig, type SwitchboardConfig } from '../../../../../electron/core/platform/config/schema.js';

const gateway = {
  resource: 'https://mcp.example.com/mcp',
  authorizationServers: ['https://login.example.com'],
  defaultProfile: 'everyone',
  ui: { clientId: 'switchboard-ui', adminGroups: ['ops'] },
};
const base = {
  mcpServers: { a: { command: 'node', args: ['a.js'] } },
  policy: { clients: { everyone: { name: 'Everyone' }, sales: { name: 'Sales' } } },
  gateway,
};

function config(raw: Record<string, unknown>): SwitchboardConfig {
  const { config, problems } = parseConfig(raw);
  expect(problems).toEqual([]);
  return config!;
}

describe('restartFields', () => {
  const started = config(base);

  it('names nothing for an edit of the backends, the policy or the live fields', () => {
    const edited = config({
      ...base,
      mcpServers: { b: { command: 'node' } },
      policy: { ...base.policy, groups: { sales: { profile: 'sales' } } },
      proxy: { extraPath: ['/opt/tools/bin'] },
      gateway: {
        ...gateway,
        defaultProfile: 'sales',
        ui: { ...gateway.ui, adminGroups: ['ops', 'sre'], adminPrincipals: ['carol@example.com'] },
      },
    });
    expect(restartFields(started, edited)).toEqual([]);
  });

  it('names each changed field that applies at start, down to the gateway UI, never a value', () => {
    const edited = config({
      ...base,
      proxy: { requestTimeoutMs: 1234, extraPath: ['/x'] },
      gateway: {
        ...gateway,
        tls: { cert: 'c.pem', key: 'k.pem' },
        ui: { ...gateway.ui, clientSecret: 'a-secret-value', adminGroups: ['sre'] },
      },
      observability: { logFormat: 'json' },
    });
    const fields = restartFields(started, edited);
    expect(fields).toEqual(['gateway.tls', 'gateway.ui.clientSecret', 'observability', 'proxy.requestTimeoutMs']);
    expect(fields.join()).not.toContain('a-secret-value');
  });

  it('names the whole section when gateway mode or replicas are turned on or off', () => {
    const { gateway: _off, ...withoutGateway } = base;
    const local = config({ ...withoutGateway, policy: base.policy });
    expect(restartFields(started, local)).toEqual(['gateway']);
    expect(
      restartFields(local, config({ ...withoutGateway, cluster: { redis: { url: 'redis://127.0.0.1:6379' } } })),
    ).toEqual(['cluster']);
  });
});

describe('liveGateway', () => {
  const started = config(base).gateway!;

  it('takes the default profile and the administrators from the edit, everything else from the start', () => {
    const edited = config({
      ...base,
      gateway: {
        ...gateway,
        resource: 'https://other.example.com/mcp',
        defaultProfile: 'sales',
        ui: { ...gateway.ui, adminGroups: [], adminPrincipals: ['carol@example.com'] },
      },
    }).gateway!;
    const inForce = liveGateway(started, edited)!;
    expect(inForce.resource).toBe('https://mcp.example.com/mcp');
    expect(inForce.defaultProfile).toBe('sales');
    expect(inForce.ui?.adminPrincipals).toEqual(['carol@example.com']);
    expect(inForce.ui?.adminGroups).toEqual([]);
  });

  it('drops a removed default profile, and stays off when gateway mode was off at start', () => {
    const { defaultProfile: _none, ...rest } = gateway;
    const edited = config({ ...base, gateway: rest }).gateway!;
    expect(liveGateway(started, edited)).not.toHaveProperty('defaultProfile');
    expect(liveGateway(undefined, edited)).toBeUndefined();
  });
});
