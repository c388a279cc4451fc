import { describe, expect, it } from 'vitest';
import { principalOf } from '../../../../../../electron/core/frontend/http/gateway/principalClaims.js';

const names = { subject: 'sub', email: 'email', name: 'name', groups: 'groups' };

describe('principalOf', () => {
  it('reads subject, email, name, groups and scopes from the configured claims', () => {
    const claims = { sub: 'u-1', email: 'a@x', name: 'Alice', groups: ['eng', 7], scope: 'mcp  notes:write' };
    expect(principalOf(claims, 'https://idp', names)).toEqual({
      subject: 'u-1',
      email: 'a@x',
      name: 'Alice',
      groups: ['eng'],
      scopes: ['mcp', 'notes:write'],
      issuer: 'https://idp',
    });
  });

  it('takes other claim names (Entra: preferred_username, roles; scp as a list)', () => {
    const claims = { oid: 'o-1', preferred_username: 'a@corp', roles: 'admin', scp: ['mcp'] };
    const entra = { subject: 'oid', email: 'preferred_username', name: 'name', groups: 'roles' };
    expect(principalOf(claims, 'https://idp', entra)).toMatchObject({
      subject: 'o-1',
      email: 'a@corp',
      groups: ['admin'],
      scopes: ['mcp'],
    });
  });

  it('names nobody without a subject', () => {
    expect(principalOf({ email: 'a@x' }, 'https://idp', names)).toBeUndefined();
  });
});
