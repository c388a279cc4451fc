import { describe, expect, it } from 'vitest';
import { NO_PROFILE, profileFor } from '../../../../../electron/core/catalog/policy/principalBinding.js';
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
});
