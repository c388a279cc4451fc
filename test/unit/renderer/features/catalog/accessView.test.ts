/**
 * The catalog's one-line cost of a profile's tools/list, in both modes.
 */
import { describe, expect, it } from 'vitest';
import { accessByKey, costLine } from '../../../../../renderer/src/features/catalog/accessView.js';

const tools = { listed: 40, tokens: 11_234, reachable: 52, allListed: 40, allTokens: 11_234, searchTokens: 212 };

describe('costLine', () => {
  it('says what a client listing all tools sees, and what search mode would cost', () => {
    expect(costLine({ name: 'Cursor', tools: { ...tools, inForce: 'all' } })).toBe(
      'Cursor sees 40 tools, ~11k tokens; in search mode ~212',
    );
  });

  it('says what a client in search mode lists and finds', () => {
    expect(costLine({ name: 'the main token', tools: { ...tools, inForce: 'search', listed: 2, tokens: 212 } })).toBe(
      'The main token is in search mode: 2 tools listed, ~212 tokens, 52 found by search; listing all would take ~11k',
    );
  });
});

describe('accessByKey', () => {
  it('keys items as the catalog list does', () => {
    const map = accessByKey({
      profile: '*',
      name: 'x',
      tools: { ...tools, inForce: 'all' },
      items: [
        {
          backendId: 'b',
          kind: 'resourceTemplates',
          original: 'u/{x}',
          exposed: 'u/{x}',
          rule: 'allow',
          source: 'default',
          withheld: false,
          inherited: 'allow',
          own: false,
          state: 'allowed',
          listed: true,
        },
      ],
    });
    expect([...map.keys()]).toEqual(['resourceTemplate:u/{x}']);
  });
});
