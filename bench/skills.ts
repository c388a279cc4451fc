/**
 * Skills (SEP-2640): `skills/list` through Switchboard over 20 stdio skills
 * servers (our fixture, two skills each, names of their own) against the
 * slowest of those servers listed alone, directly (the same servers, the
 * direct ones measured first to find the slowest, then it and Switchboard in
 * alternating blocks); and the poisoning scan of one skill of 100 KB against
 * the same skill of one paragraph. Ratios side by side, in one run.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { SkillsClient, type Skill } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { scanCatalog } from '../electron/core/catalog/index.js';
import { fixture, nodeServer, startProxy } from '../test/helpers/harness.js';
import { interleaved, printTable, summarize, timeSequential } from './lib.js';

const SERVERS = 20;
const CALLS = 200;
const SCANS = 30;
const ms = (value: number): string => `${value.toFixed(2)} ms`;

/** A copy of the fixture's library whose skills are named `<name>-<n>` (names are unique across servers). */
async function library(root: string, n: number): Promise<string> {
  const dir = join(root, `library-${n}`);
  for (const name of ['pdf-processing', 'release-notes']) {
    await cp(fixture(`skills/library/${name}`), join(dir, `${name}-${n}`), { recursive: true });
    const path = join(dir, `${name}-${n}`, 'SKILL.md');
    await writeFile(path, (await readFile(path, 'utf8')).replace(`name: ${name}`, `name: ${name}-${n}`));
  }
  return dir;
}

async function listing(root: string): Promise<string[][]> {
  const libraries = await Promise.all(Array.from({ length: SERVERS }, (_, n) => library(root, n)));
  const direct = await Promise.all(
    libraries.map(async (dir) => {
      const client = new Client({ name: 'bench-direct', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [fixture('skills/server.mjs'), dir] }),
      );
      return client;
    }),
  );
  const servers = Object.fromEntries(
    libraries.map((dir, n) => [`s${n}`, nodeServer(fixture('skills/server.mjs'), [dir])]),
  );
  const proxy = await startProxy({ mcpServers: servers });
  try {
    const client = await proxy.connect('modern');
    const proxied = new SkillsClient(client);
    const listed = (await proxied.list()).skills.length;
    if (listed !== 2 * SERVERS) throw new Error(`Switchboard lists ${listed} skills, not ${2 * SERVERS}`);
    // Each server alone, to find the slowest (warmed first).
    const alone = [];
    for (const client of direct) {
      const skills = new SkillsClient(client);
      await timeSequential(20, () => skills.list());
      alone.push({ skills, stats: summarize(await timeSequential(50, () => skills.list())) });
    }
    const slowest = alone.reduce((a, b) => (b.stats.p50 > a.stats.p50 ? b : a));
    await timeSequential(20, () => proxied.list());
    const [one, through] = await interleaved(
      CALLS,
      25,
      () => slowest.skills.list(),
      () => proxied.list(),
    );
    // The same hop for a list every client has (20 tools, one a server): what the HTTP round trip costs.
    await timeSequential(20, () => client.listTools());
    const tools = summarize(await timeSequential(CALLS, () => client.listTools()));
    return [
      ['slowest server alone, directly (stdio)', ms(one.p50), ms(one.p99), '1.00'],
      [
        `Switchboard over ${SERVERS} servers (HTTP, 2026-07-28)`,
        ms(through.p50),
        ms(through.p99),
        (through.p50 / one.p50).toFixed(2),
      ],
      [`tools/list through Switchboard, for reference`, ms(tools.p50), ms(tools.p99), (tools.p50 / one.p50).toFixed(2)],
    ];
  } finally {
    await Promise.allSettled(direct.map((client) => client.close()));
    await proxy.close();
  }
}

/** A skill whose SKILL.md is `text`, as the scan gets it. */
function skillInput(text: string) {
  const uri = 'skill://pdf-processing/SKILL.md';
  const skill = {
    uri,
    frontmatter: { name: 'pdf-processing', description: 'Extract text and tables from PDF files and fill forms.' },
    resources: [{ uri, digest: 'sha256:0', size: text.length }],
  } as unknown as Skill;
  const input = { server: 'docs', prefix: 'docs', tools: [], prompts: [], resources: [], resourceTemplates: [] };
  return [{ ...input, skills: [skill], skillFiles: { [uri]: text } }];
}

async function scanning(): Promise<string[][]> {
  const paragraph = await readFile(fixture('skills/library/pdf-processing/SKILL.md'), 'utf8');
  let big = '';
  for (let n = 0; big.length < 100 * 1024; n++) big += `\n## Part ${n}\n\n${paragraph}`;
  const small = skillInput(paragraph);
  const large = skillInput(big.slice(0, 100 * 1024));
  const [one, hundred] = await interleaved(
    SCANS,
    5,
    async () => scanCatalog(small),
    async () => scanCatalog(large),
  );
  return [
    [`one skill of one paragraph (${paragraph.length} B)`, ms(one.p50), ms(one.p99), '1.00'],
    ['one skill of 100 KB', ms(hundred.p50), ms(hundred.p99), (hundred.p50 / one.p50).toFixed(1)],
  ];
}

const root = await mkdtemp(join(tmpdir(), 'bench-skills-'));
const start = performance.now();
try {
  printTable(
    'skills/list: Switchboard over 20 servers against the slowest alone',
    ['what', 'p50', 'p99', 'ratio'],
    await listing(root),
  );
  printTable('the poisoning scan of a skill', ['what', 'p50', 'p99', 'ratio'], await scanning());
  console.log(`(${((performance.now() - start) / 1000).toFixed(1)} s)`);
} finally {
  await rm(root, { recursive: true, force: true });
}
