/**
 * Who is an administrator of the UI in gateway mode: a member of an admin
 * group, or a person listed by subject or email; nobody else.
 */
import { describe, expect, it } from 'vitest';
import { isAdmin } from '../../../../electron/host/gatewayUi/adminDecision.js';
import { GatewaySchema } from '../../../../electron/core/platform/index.js';

const ui = { adminGroups: ['platform', 'sre'], adminPrincipals: ['carol', 'dave@example.com'] };

describe('isAdmin', () => {
  it('admits a member of any admin group', () => {
    expect(isAdmin({ subject: 'alice', groups: ['team-a', 'sre'] }, ui)).toBe(true);
  });

  it('admits a person listed by subject or by email', () => {
    expect(isAdmin({ subject: 'carol', groups: [] }, ui)).toBe(true);
    expect(isAdmin({ subject: 'u-42', email: 'dave@example.com', groups: [] }, ui)).toBe(true);
  });

  it('refuses everyone else, including a group or email that only looks alike', () => {
    expect(isAdmin({ subject: 'bob', email: 'bob@example.com', groups: ['team-b'] }, ui)).toBe(false);
    expect(isAdmin({ subject: 'bob', groups: ['Platform', 'platform-team'] }, ui)).toBe(false);
    expect(isAdmin({ subject: 'dave@example.com.evil', email: 'x@example.com', groups: [] }, ui)).toBe(false);
  });

  it('has no administrators when the config names none (the section defaults to empty lists)', () => {
    const gateway = GatewaySchema.parse({
      resource: 'https://mcp.example.com/mcp',
      authorizationServers: ['https://login.example.com'],
      ui: { clientId: 'switchboard-ui' },
    });
    expect(gateway.ui).toMatchObject({ adminGroups: [], adminPrincipals: [], scopes: ['openid', 'email', 'profile'] });
    expect(isAdmin({ subject: 'alice', groups: ['platform'] }, gateway.ui!)).toBe(false);
  });
});
