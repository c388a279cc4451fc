import { describe, expect, it } from 'vitest';
import {
  NO_PROFILE,
  profileFor,
  unboundMessage,
} from '../../../../../electron/core/catalog/policy/principalBinding.js';
import type { Principal } from '../../../../../electron/core/catalog/policy/principal.js';

const alice: Principal = {
  subject: 'u-1',
  email: 'alice@example.com',
  groups: ['eng', 'ops'],
  scopes: [],
  issuer: 'https://idp',
};
const policy = {
  principals: { 'alice@example.com': { profile: 'alice-own' } },
  groups: { ops: { profile: 'ops' }, eng: { profile: 'eng' } },
};

describe('profileFor', () => {
  it('takes the principal’s own entry first (subject, then email)', () => {
    expect(profileFor(policy, alice, 'everyone')).toEqual({
      profile: 'alice-own',
      by: 'principal',
      match: 'alice@example.com',
    });
    const bySubject = { ...policy, principals: { ...policy.principals, 'u-1': { profile: 'by-sub' } } };
    expect(profileFor(bySubject, alice, undefined).profile).toBe('by-sub');
  });

  it('then the first group in config order, then the default, then no profile at all', () => {
    const noOwn = { groups: policy.groups };
    expect(profileFor(noOwn, alice, 'everyone')).toEqual({ profile: 'ops', by: 'group', match: 'ops' });
    const stranger = { ...alice, email: 'x@example.com', groups: ['sales'] };
    expect(profileFor(noOwn, stranger, 'everyone')).toEqual({ profile: 'everyone', by: 'default' });
    expect(profileFor(noOwn, stranger, undefined)).toEqual({ profile: NO_PROFILE, by: 'none' });
  });

  it('tells a person bound to no profile who they are and the three bindings to ask the operator for', () => {
    const message = unboundMessage({ subject: 'u-9', email: 'x@example.com', groups: ['sales', 'emea'] });
    expect(message).toContain('x@example.com; groups: sales, emea');
    for (const binding of ['policy.principals', 'policy.groups', 'gateway.defaultProfile'])
      expect(message).toContain(binding);
    expect(unboundMessage({ subject: 'u-9', groups: [] })).toContain('(u-9; no groups)');
  });
});
