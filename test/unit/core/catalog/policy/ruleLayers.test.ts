/**
 * An item's rule layers for the Authorization screen: the rule in force agrees
 * with the policy engine's, and "inherit" names what removing the item's own
 * rule would give (not the rule it has now).
 */
import { describe, expect, it } from 'vitest';
import { PolicyEngine } from '../../../../../electron/core/catalog/policy/policyEngine.js';
import { LOCAL_CLIENT, PolicySchema } from '../../../../../electron/core/platform/config/policyConfig.js';
import { ruleLayers } from '../../../../../electron/core/catalog/policy/ruleLayers.js';

const policy = PolicySchema.parse({
  defaultRule: 'allow',
  backends: {
    gh: { tools: { create_issue: 'deny', search: 'ask' } },
    strict: { defaultRule: 'deny', tools: { read: 'allow' } },
    off: { enabled: false, tools: { x: 'allow' } },
  },
  clients: {
    cursor: { name: 'Cursor', items: { gh: { tools: { create_issue: 'allow', list: 'deny' } } } },
    narrow: { name: 'Narrow', backends: ['gh'] },
  },
});

describe('ruleLayers', () => {
  it('names the inherited value, not the own rule, for a row with its own rule', () => {
    // Everyone: create_issue is denied by its own rule; inheriting gives the global allow.
    expect(ruleLayers(policy, LOCAL_CLIENT, 'tools', 'gh', 'create_issue')).toEqual({
      rule: 'deny',
      source: 'item',
      inherited: 'allow',
      own: true,
    });
    // Cursor allows it for itself; inheriting gives what everyone gets (deny).
    expect(ruleLayers(policy, 'cursor', 'tools', 'gh', 'create_issue')).toEqual({
      rule: 'allow',
      source: 'client',
      inherited: 'deny',
      own: true,
    });
    // Cursor denies `list` for itself; inheriting gives the global allow.
    expect(ruleLayers(policy, 'cursor', 'tools', 'gh', 'list')).toMatchObject({ rule: 'deny', inherited: 'allow' });
  });

  it('for a profile, an everyone rule is inherited, not its own', () => {
    expect(ruleLayers(policy, 'cursor', 'tools', 'gh', 'search')).toEqual({
      rule: 'ask',
      source: 'item',
      inherited: 'ask',
      own: false,
    });
    expect(ruleLayers(policy, LOCAL_CLIENT, 'tools', 'strict', 'read')).toMatchObject({
      rule: 'allow',
      inherited: 'deny',
      own: true,
    });
    expect(ruleLayers(policy, LOCAL_CLIENT, 'tools', 'strict', 'other')).toEqual({
      rule: 'deny',
      source: 'backend',
      inherited: 'deny',
      own: false,
    });
  });

  it('agrees with the policy engine on every combination', () => {
    const engine = new PolicyEngine(policy);
    const clients = [LOCAL_CLIENT, 'cursor', 'narrow', 'nobody'];
    const items: [string, string][] = [
      ['gh', 'create_issue'],
      ['gh', 'search'],
      ['gh', 'list'],
      ['gh', 'other'],
      ['strict', 'read'],
      ['strict', 'other'],
      ['off', 'x'],
      ['unknown', 'y'],
    ];
    for (const client of clients) {
      for (const [backend, original] of items) {
        expect(ruleLayers(policy, client, 'tools', backend, original).rule, `${client} ${backend}/${original}`).toBe(
          engine.rule(client, 'tools', backend, original),
        );
      }
    }
  });
});
