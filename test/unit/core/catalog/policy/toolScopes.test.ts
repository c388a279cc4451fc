import { describe, expect, it } from 'vitest';
import { missingScopes, requiredScopes } from '../../../../../electron/core/catalog/policy/toolScopes.js';
import { PolicySchema } from '../../../../../electron/core/platform/config/policyConfig.js';

describe('scopes per server and per tool', () => {
  const policy = PolicySchema.parse({
    backends: { gh: { scopes: ['repo'], toolScopes: { delete_repo: ['repo', 'admin'] } } },
  });

  it('a tool needs its server’s scopes and its own, each once', () => {
    expect(requiredScopes(policy, { backendId: 'gh', original: 'delete_repo' })).toEqual(['repo', 'admin']);
    expect(requiredScopes(policy, { backendId: 'gh', original: 'search' })).toEqual(['repo']);
    expect(requiredScopes(policy, { backendId: 'other', original: 'x' })).toEqual([]);
  });

  it('names what a token lacks', () => {
    expect(missingScopes(['repo', 'admin'], ['repo'])).toEqual(['admin']);
    expect(missingScopes(['repo'], ['repo', 'admin'])).toEqual([]);
    expect(missingScopes([], [])).toEqual([]);
  });
});
