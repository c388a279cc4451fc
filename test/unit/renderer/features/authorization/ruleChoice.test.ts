/**
 * The rule switches' logic: what the select and its "inherit" option show,
 * which rules each bulk action writes, "N of M tools on", and the filter.
 */
import { describe, expect, it } from 'vitest';
import type { PolicyItemView } from '../../../../../shared/model/views.js';
import {
  bulkChanges,
  filterItems,
  inheritLabel,
  selectValue,
  stateLook,
  toolsOn,
} from '../../../../../renderer/src/features/authorization/ruleChoice.js';

const item = (original: string, patch: Partial<PolicyItemView> = {}): PolicyItemView => ({
  backendId: 'gh',
  kind: 'tools',
  original,
  exposed: `gh__${original}`,
  rule: 'allow',
  source: 'default',
  withheld: false,
  inherited: 'allow',
  own: false,
  ...patch,
});

describe('the rule select', () => {
  it('shows an own rule as itself, and names what inherit gives (not the own rule)', () => {
    const denied = item('create_issue', { rule: 'deny', source: 'item', own: true, inherited: 'allow' });
    expect(selectValue(denied)).toBe('deny');
    expect(inheritLabel(denied)).toBe('inherit (allow)');
  });

  it('shows inherit for a rule from a lower layer, and a profile hidden server as no rule of its own', () => {
    expect(selectValue(item('search', { rule: 'ask', source: 'item', inherited: 'ask' }))).toBe('');
    expect(selectValue(item('x', { rule: 'deny', source: 'client', inherited: 'deny' }))).toBe('');
  });
});

describe('bulk actions', () => {
  const items = [
    item('read', { readOnly: true }),
    item('write'),
    item('delete', { rule: 'deny', own: true }),
    { ...item('greet'), kind: 'prompts' as const },
  ];

  it('allow all and deny all set every item not already so', () => {
    expect(bulkChanges(items, 'allow').map((c) => [c.original, c.rule])).toEqual([
      ['read', 'allow'],
      ['write', 'allow'],
      ['delete', 'allow'],
      ['greet', 'allow'],
    ]);
    expect(bulkChanges(items, 'deny').map((c) => c.original)).toEqual(['read', 'write', 'greet']);
  });

  it('ask only for tools not marked read-only, never for prompts', () => {
    expect(bulkChanges(items, 'ask-writes')).toEqual([
      { backendId: 'gh', kind: 'tools', original: 'write', rule: 'ask' },
      { backendId: 'gh', kind: 'tools', original: 'delete', rule: 'ask' },
    ]);
  });

  it('reset removes only own rules', () => {
    expect(bulkChanges(items, 'inherit')).toEqual([{ backendId: 'gh', kind: 'tools', original: 'delete', rule: null }]);
  });
});

describe('what a profile gets', () => {
  it('counts the tools on for one server', () => {
    const states = [
      { kind: 'tools' as const, backendId: 'gh', state: 'allowed' as const },
      { kind: 'tools' as const, backendId: 'gh', state: 'ask' as const },
      { kind: 'tools' as const, backendId: 'gh', state: 'denied' as const },
      { kind: 'tools' as const, backendId: 'gh', state: 'over-cap' as const },
      { kind: 'prompts' as const, backendId: 'gh', state: 'allowed' as const },
      { kind: 'tools' as const, backendId: 'fs', state: 'allowed' as const },
    ];
    expect(toolsOn(states, 'gh')).toEqual({ on: 2, total: 4 });
    expect(toolsOn(states, 'none')).toEqual({ on: 0, total: 0 });
  });

  it('says a denied item is denied by the rule for that profile', () => {
    expect(stateLook('denied', 'Cursor').detail).toBe('denied by your rule for Cursor');
    expect(stateLook('server-hidden', 'Cursor').detail).toContain('Cursor does not see this server');
  });

  it('filters by item or server, every word', () => {
    const list = [item('read'), { ...item('query'), backendId: 'db', exposed: 'db__query' }];
    expect(filterItems(list, 'db').map((i) => i.original)).toEqual(['query']);
    expect(filterItems(list, 'gh read').map((i) => i.original)).toEqual(['read']);
    expect(filterItems(list, '  ')).toHaveLength(2);
  });
});
