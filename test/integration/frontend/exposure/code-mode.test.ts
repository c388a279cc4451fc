/**
 * Code mode through the real endpoint, real SDK clients of both eras and real
 * fixture servers: run_code's program calls tools across servers on the path
 * a direct call takes (deny, ask, fixed override arguments, parallel calls
 * bounded, cancellation, an audit entry per call naming its run), and every
 * way out of the sandbox is stopped with an error naming the limit.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog, ClientTokens } from '../../../../electron/core/catalog/index.js';
import { firstText, fixture, MEMORY, nodeServer, startProxy, tempDir, type Harness } from '../../../helpers/harness.js';
import { waitUntil } from '../../../helpers/processes.js';

const text = (result: unknown): string => firstText(result as { content?: unknown });
const ERAS = ['legacy', 'modern'] as const;

describe('code mode', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let proxy: Harness;
  let audit: AuditLog;
  let token: string;

  beforeAll(async () => {
    dir = await tempDir();
    audit = new AuditLog({ dir: join(dir.path, 'audit') });
    proxy = await startProxy(
      {
        mcpServers: {
          memory: nodeServer(MEMORY, [], { env: { MEMORY_FILE_PATH: join(dir.path, 'memory.jsonl') } }),
          slow: nodeServer(fixture('slow.mjs')),
          cfg: {
            ...nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'lookup,secret' } }),
            overrides: { tools: { lookup: { arguments: { region: { fixed: 'eu' } } } } },
          },
        },
        policy: {
          backends: { cfg: { tools: { secret: 'deny' } }, slow: { tools: { echo: 'ask' } } },
        },
      },
      { tokens: new ClientTokens(join(dir.path, 'client-tokens.json')), audit },
    );
    token = await proxy.core.profiles.createProfile('coder', { name: 'Coder', exposure: 'code' });
  });
  afterAll(async () => {
    await proxy?.close();
    await dir?.cleanup();
  });

  const run = async (era: 'legacy' | 'modern', code: string, options = {}) => {
    const client = await proxy.connect(era, token, { capabilities: { elicitation: {} } });
    return client.callTool({ name: 'run_code', arguments: { code } }, options);
  };

  it.each(ERAS)('lists run_code declaring the functions, and chains calls across two servers (%s)', async (era) => {
    const client = await proxy.connect(era, token);
    const listed = (await client.listTools()).tools;
    expect(listed.map((tool) => tool.name)).toEqual(['run_code']);
    expect(listed[0]!.description).toContain('declare const tools');
    expect(listed[0]!.description).toContain('create_entities(args: {');
    expect(listed[0]!.description).not.toContain('secret');

    const result = await client.callTool({
      name: 'run_code',
      arguments: {
        code: `
          await tools.memory.create_entities({ entities: [{ name: 'ada-${era}', entityType: 'person', observations: ['wrote notes'] }] });
          const looked = await tools.cfg.lookup({ q: 'ada' });
          const found = await tools.memory.search_nodes({ query: 'ada-${era}' });
          console.log('found', found.entities.length);
          return { people: found.entities.map((e) => e.name), lookup: looked };`,
      },
    });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toMatch(/^run-\w+: 3 tool calls\. Returned: /);
    expect(text(result)).toContain(`"people":["ada-${era}"]`);
    expect(text(result)).toContain('lookup:{\\"q\\":\\"ada\\",\\"region\\":\\"eu\\"}');
    expect(text(result)).toContain('Logs:\nfound 1');
  });

  it('runs Promise.all calls in parallel, at most 8 at once', async () => {
    const result = await run(
      'legacy',
      `const started = Date.now();
       await Promise.all(Array.from({ length: 12 }, () => tools.slow.sleep({ ms: 150 })));
       return tools.slow.max_concurrency({});`,
    );
    const peak = Number(JSON.parse(text(result).split('Returned: ')[1]!));
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(8);
  });

  it.each(ERAS)('refuses a denied tool and a fixed override argument inside the program (%s)', async (era) => {
    const result = await run(
      era,
      `const out = [typeof tools.cfg.secret];
       try { await tools.cfg.lookup({ q: 'x', region: 'us' }); } catch (e) { out.push(e.message); }
       return out;`,
    );
    expect(text(result)).toContain('["undefined","');
    expect(text(result)).toMatch(/\\"region\\" is fixed by the configuration/);
  });

  it.each(ERAS)(
    'asks the %s client for an ask tool called by the program, and goes on with its answer',
    async (era) => {
      const client = await proxy.connect(era, token, { capabilities: { elicitation: {} } });
      const asked: string[] = [];
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push((request.params as { message: string }).message);
        return { action: 'accept', content: { decision: 'once' } };
      });
      const result = await client.callTool({
        name: 'run_code',
        arguments: {
          code: `const before = await tools.cfg.lookup({ q: 'before-${era}' });\nreturn [before, await tools.slow.echo({ text: 'approved' })];`,
        },
      });
      expect(text(result)).toContain(
        `Returned: ["lookup:{\\"q\\":\\"before-${era}\\",\\"region\\":\\"eu\\"}","approved"]`,
      );
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('allow slow__echo');
      // The call made before the question reached its server once, also when a 2026-07-28 retry ran the program again.
      const id = /^(run-\w+)/.exec(text(result))![1]!;
      await waitUntil(async () => (await audit.query({})).some((e) => e.run === id && e.item === 'echo'));
      expect((await audit.query({})).filter((e) => e.run === id && e.item === 'lookup')).toHaveLength(1);
    },
  );

  it.each(ERAS)('cancelling run_code cancels the call its program is waiting for (%s)', async (era) => {
    const client = await proxy.connect(era, token);
    const count = async () =>
      Number(
        text(
          await client.callTool({ name: 'run_code', arguments: { code: 'return tools.slow.cancelled_count({});' } }),
        ).split('Returned: ')[1],
      );
    const before = await count();
    const controller = new AbortController();
    const call = client
      .callTool({ name: 'run_code', arguments: { code: 'await tools.slow.hang({});' } }, { signal: controller.signal })
      .catch((e: unknown) => e);
    await waitUntil(() => proxy.core.health().find((b) => b.id === 'slow')?.outstandingRequests === 1);
    controller.abort(new Error('stop'));
    await call;
    await waitUntil(async () => (await count()) === before + 1, { description: 'the backend to see the cancel' });
  });

  it('answers another client promptly while a program computes up to its CPU limit (the engine runs off the event loop)', async () => {
    // A warm sandbox, as after any earlier run.
    expect(text(await run('legacy', 'return 1;'))).toContain('Returned: 1');
    const plain = await proxy.connect('modern');
    let spinning = true;
    const spinner = run('legacy', 'let i = 0;\nwhile (true) i++;').finally(() => (spinning = false));
    // Calls while the program spins (its run is 2 s of CPU): each timed, round trip through the endpoint.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const times: number[] = [];
    while (spinning) {
      const started = performance.now();
      const result = await plain.callTool({ name: 'cfg__lookup', arguments: { q: times.length } });
      if (!spinning) break;
      times.push(performance.now() - started);
      expect(text(result)).toContain(`lookup:{"q":${times.length - 1},"region":"eu"}`);
    }
    expect(text(await spinner)).toMatch(/Stopped by the cpu limit.*CPU time limit/);
    // Without the worker thread, one call would wait out the whole 2 s.
    expect(times.length).toBeGreaterThanOrEqual(10);
    const sorted = [...times].sort((a, b) => a - b);
    const p99 = sorted[Math.ceil(sorted.length * 0.99) - 1]!;
    expect(p99, `${times.length} calls, p50 ${sorted[sorted.length >> 1]!.toFixed(1)} ms`).toBeLessThan(200);
  });

  it('writes an audit entry per call of a program, naming its run', async () => {
    const result = await run(
      'legacy',
      `await tools.cfg.lookup({ q: 1 }); await tools.cfg.lookup({ q: 2 }); return 'ok';`,
    );
    const id = /^(run-\w+)/.exec(text(result))![1]!;
    await waitUntil(async () => (await audit.query({})).filter((e) => e.run === id).length === 2);
    const entries = (await audit.query({})).filter((e) => e.run === id);
    expect(entries.map((e) => [e.backend, e.item, e.outcome])).toEqual([
      ['cfg', 'lookup', 'ok'],
      ['cfg', 'lookup', 'ok'],
    ]);
  });

  describe('stops each way out of the sandbox, naming the limit', () => {
    it.each([
      ['an infinite loop', 'let i = 0;\nwhile (true) i++;', /Stopped by the cpu limit.*CPU time limit/],
      [
        'a memory bomb',
        'const a = [];\nfor (;;) a.push(new ArrayBuffer(1 << 22));',
        /Stopped by the memory limit \(line 2\)/,
      ],
      [
        'deep recursion',
        'function f(n) { return f(n + 1) + 1; }\nreturn f(0);',
        /Stopped by the stack limit \(line 1\)/,
      ],
    ])('%s', async (_name, code, message) => {
      const result = await run('legacy', code);
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(message);
      // The proxy goes on serving: the next run works.
      expect(text(await run('legacy', 'return 1 + 1;'))).toContain('Returned: 2');
    });

    it('shows no host object on globalThis: no process, require, fetch, timers or fine clock', async () => {
      const result = await run(
        'modern',
        `return [typeof process, typeof require, typeof fetch, typeof setTimeout, typeof performance, typeof WebAssembly,
                 typeof globalThis.__sb_call, Date.now() % 1000, Object.keys(globalThis).sort()];`,
      );
      expect(text(result)).toContain(
        'Returned: ["undefined","undefined","undefined","undefined","undefined","undefined","undefined",0,["console","tools"]]',
      );
    });

    it('keeps prototype pollution inside the sandbox', async () => {
      const result = await run(
        'legacy',
        `Object.prototype.polluted = 'yes';
         Object.prototype.toJSON = undefined;
         JSON.parse = () => ({ hijacked: true });
         const r = await tools.cfg.lookup({ q: 'p' });
         return [r, ({}).polluted];`,
      );
      expect(text(result)).toContain('Returned: ["lookup:{\\"q\\":\\"p\\",\\"region\\":\\"eu\\"}","yes"]');
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
      const entry = (await audit.query({})).filter((e) => e.item === 'lookup').pop();
      expect(entry?.outcome).toBe('ok');
    });

    it('returns a huge value cut, with its size', async () => {
      const result = await run('legacy', `return 'x'.repeat(1e6);`);
      expect(text(result).length).toBeLessThan(30_000);
      expect(text(result)).toContain('[truncated: the returned value is 1000002 characters of JSON');
    });
  });
});
