/**
 * A stdio server that writes junk on stdout (text, JSON that is not JSON-RPC,
 * bytes that are not UTF-8 with a terminal escape) before it serves normally:
 * it still works, and the junk leaves something to diagnose it by: a health
 * warning showing the first line safely with the count (the card and
 * `doctor`), and a bounded log line.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstText, fixture, nodeServer, startProxy, tempDir } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';
import { runCli } from '../../helpers/cli.js';

const WARNING =
  'wrote 5 lines that are not JSON-RPC on stdout: "hello this is not json" (the first; skipped; logs belong on stderr)';

describe('a server writing junk on stdout', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(() => dir?.cleanup());

  it('still serves, with a health warning and a log line that say what it wrote', async () => {
    const warnings: string[] = [];
    const logger = { info: () => undefined, error: () => undefined, warn: (line: string) => void warnings.push(line) };
    const proxy = await startProxy(
      { mcpServers: { garbage: nodeServer(fixture('faulty.mjs'), ['garbage']) } },
      { deps: { logger } },
    );
    try {
      const client = await proxy.connect();
      expect(firstText(await client.callTool({ name: 'garbage__echo', arguments: { text: 'ok' } }))).toBe('ok');
      const health = proxy.core.health().find((backend) => backend.id === 'garbage');
      expect(health?.status).toBe('up');
      expect(health?.warnings).toEqual([WARNING]);
      // One line at once, the rest counted for the next (at most one per 10 s).
      const junkLogs = () => warnings.filter((line) => line.includes('not JSON-RPC on stdout'));
      expect(junkLogs()).toEqual([
        'backend "garbage" wrote 1 line that is not JSON-RPC on stdout (skipped; 1 so far; logs belong on stderr), the latest: "hello this is not json"',
      ]);
      await waitUntil(() => junkLogs().length === 2, { timeoutMs: 15_000, description: 'the next junk log line' });
      // The invalid UTF-8 and the escape character shown as escapes, never as raw bytes.
      expect(junkLogs()[1]).toBe(
        'backend "garbage" wrote 4 lines that are not JSON-RPC on stdout (skipped; 5 so far; logs belong on stderr), the latest: "\\ufffd\\ufffd\\u001b[31mred"',
      );
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('doctor prints the warning under the server', async () => {
    const config = join(dir.path, 'junk.json');
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { garbage: nodeServer(fixture('faulty.mjs'), ['garbage']) } }),
    );
    const doctor = await runCli(['doctor', '--config', config], {
      XDG_CONFIG_HOME: dir.path,
      XDG_STATE_HOME: join(dir.path, 'state'),
    });
    expect(doctor.stdout).toMatch(
      /^garbage: up \(1 tools\).*\n {2}warning: wrote 5 lines that are not JSON-RPC on stdout: "hello this is not json"/m,
    );
    expect(doctor.stdout).not.toContain('\u001b');
    expect(doctor.code).toBe(0);
  }, 60_000);
});
