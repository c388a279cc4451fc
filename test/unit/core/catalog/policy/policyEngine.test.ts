/**
 * The policy engine on a real merged catalog: the precedence of its levels
 * (each decision names the level that made it), what each client's view
 * holds, the tool cap, shortened names, withheld tools and cached views.
 */
import { describe, expect, it } from 'vitest';
import { PolicySchema, type Policy } from '../../../../../electron/core/platform/config/policyConfig.js';
import { PolicyEngine } from '../../../../../electron/core/catalog/policy/policyEngine.js';
import { exposedOf, twoBackendCatalog } from '../../../../helpers/policyCatalog.js';

function policy(section: unknown): Policy {
  return PolicySchema.parse(section);
}

describe('PolicyEngine.decide', () => {
  it('falls back from the item rule to the backend default to the global default', () => {
    const engine = new PolicyEngine(
      policy({
        defaultRule: 'deny',
        backends: { gh: { defaultRule: 'allow', tools: { create_issue_comment: 'ask' } } },
      }),
    );
    expect(engine.decide('local', 'tools', 'gh', 'create_issue_comment')).toEqual({ rule: 'ask', source: 'item' });
    expect(engine.decide('local', 'tools', 'gh', 'search')).toEqual({ rule: 'allow', source: 'backendDefault' });
    expect(engine.decide('local', 'tools', 'fs', 'read')).toEqual({ rule: 'deny', source: 'globalDefault' });
  });

  it('denies everything of a disabled backend, whatever its items say', () => {
    const engine = new PolicyEngine(
      policy({ backends: { gh: { enabled: false, tools: { search: 'allow' } } }, clients: { c: { name: 'C' } } }),
    );
    expect(engine.decide('local', 'tools', 'gh', 'search')).toEqual({ rule: 'deny', source: 'backendDisabled' });
    expect(engine.decide('c', 'prompts', 'gh', 'summarize')).toEqual({ rule: 'deny', source: 'backendDisabled' });
  });

  it("puts a client's own rules above the item's, and its server list above both", () => {
    const engine = new PolicyEngine(
      policy({
        backends: { gh: { tools: { search: 'deny' } } },
        clients: {
          cursor: { name: 'Cursor', backends: ['gh'], items: { gh: { tools: { search: 'ask' } } } },
          zed: { name: 'Zed', backends: ['fs'], items: { gh: { tools: { search: 'allow' } } } },
        },
      }),
    );
    expect(engine.decide('cursor', 'tools', 'gh', 'search')).toEqual({ rule: 'ask', source: 'clientItem' });
    expect(engine.decide('cursor', 'tools', 'fs', 'read')).toEqual({ rule: 'deny', source: 'clientBackends' });
    expect(engine.decide('zed', 'tools', 'gh', 'search')).toEqual({ rule: 'deny', source: 'clientBackends' });
    // The local client has no profile: the item's rule for everyone holds.
    expect(engine.decide('local', 'tools', 'gh', 'search')).toEqual({ rule: 'deny', source: 'item' });
  });

  it('denies a client without a profile', () => {
    const engine = new PolicyEngine(policy({}));
    expect(engine.decide('stranger', 'tools', 'gh', 'search')).toEqual({ rule: 'deny', source: 'unknownClient' });
    expect(engine.knows('stranger')).toBe(false);
    expect(engine.knows('local')).toBe(true);
  });

  it('gives rule() the rule decide() gives', () => {
    const engine = new PolicyEngine(policy({ backends: { gh: { tools: { search: 'ask' } } } }));
    expect(engine.rule('local', 'tools', 'gh', 'search')).toBe('ask');
    expect(engine.rule('nobody', 'tools', 'gh', 'search')).toBe('deny');
  });
});

describe('PolicyEngine.view', () => {
  const catalog = twoBackendCatalog();

  it('removes denied items of every kind and lists the rest as allowed', () => {
    const engine = new PolicyEngine(
      policy({
        backends: {
          gh: {
            tools: { create_issue_comment: 'deny' },
            prompts: { summarize: 'deny' },
            resources: { 'note://a': 'deny' },
          },
        },
      }),
    );
    const view = engine.view('local', catalog);
    const search = exposedOf(catalog.toolIndex, 'gh', 'search');
    const createIssue = exposedOf(catalog.toolIndex, 'gh', 'create_issue_comment');
    expect(view.tools.map((tool) => tool.name)).toEqual([search, exposedOf(catalog.toolIndex, 'fs', 'read')]);
    expect(view.allowed.tools.has(createIssue)).toBe(false);
    expect(view.prompts).toEqual([]);
    expect(view.resources).toEqual([]);
    expect(view.resourceTemplates).toHaveLength(1);
    expect(view.exposure).toBe('all');
  });

  it("caps a client's tool list at maxTools and shortens names past maxNameLength", () => {
    const engine = new PolicyEngine(policy({ clients: { short: { name: 'S', maxTools: 2, maxNameLength: 16 } } }));
    const view = engine.view('short', catalog);
    expect(view.tools).toHaveLength(2);
    const long = exposedOf(catalog.toolIndex, 'gh', 'create_issue_comment');
    const short = [...view.aliases].find(([, original]) => original === long)?.[0];
    expect(short).toBeDefined();
    expect(short!.length).toBeLessThanOrEqual(16);
    expect(view.tools.map((tool) => tool.name)).toContain(short);
    // The view still allows it under its catalog name (aliases are resolved before the check).
    expect(view.allowed.tools.has(long)).toBe(true);
  });

  it('withholds tools for everyone while keeping other kinds', () => {
    const engine = new PolicyEngine(
      policy({}),
      (backend, kind, tool) => backend === 'gh' && kind === 'tools' && tool === 'search',
    );
    const view = engine.view('local', catalog);
    expect(view.allowed.tools.has(exposedOf(catalog.toolIndex, 'gh', 'search'))).toBe(false);
    expect(view.prompts).toHaveLength(1);
  });

  it('keeps a view per catalog until the policy is replaced', () => {
    const engine = new PolicyEngine(policy({}));
    const first = engine.view('local', catalog);
    expect(engine.view('local', catalog)).toBe(first);
    expect(engine.view('local', twoBackendCatalog())).not.toBe(first);
    engine.replace(policy({ backends: { fs: { enabled: false } } }));
    expect(engine.view('local', catalog).tools).toHaveLength(2);
  });
});
