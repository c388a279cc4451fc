/**
 * Three `serve` replicas behind a real HAProxy, sharing one config file mounted
 * read-only (where a mount namespace can be made), each running its own stdio
 * backend that answers its replica's name. Checks what a team running replicas
 * relies on: 2026-07-28 calls spread over every replica; a config change asked
 * for on the read-only file is refused at once, saying so; a rolling restart
 * (SIGTERM, then a new process) of all three under load loses nothing, each
 * stopping replica answering /readyz with 503 at once and exiting 0; a replica
 * killed with SIGKILL under load costs at most the calls in flight on it (each
 * an error), and its 2025-era sessions open again elsewhere and go on.
 */
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../../helpers/cli.js';
import { waitUntil } from '../../helpers/processes.js';
import { fixture, nodeServer } from '../../helpers/harness.js';
import { haproxyAvailable, readOnlyMountAvailable, startCluster, type Cluster } from '../../helpers/replicas.js';
import { eraClient, pause, replicaOf, REPLICA_TOOL, startLoad, type CallOutcome } from '../../helpers/replicaLoad.js';

/** A small steady load: each worker calls, waits 50 ms, calls again. */
const workers = { modern: 3, legacy: 1, paceMs: 50 };

/** The outcomes that are errors. */
const errors = (outcomes: CallOutcome[]) => outcomes.filter((outcome) => outcome.error !== undefined);

// Without HAProxy the file skips, saying why; in CI (which installs it) it fails instead.
const skip = !haproxyAvailable() && process.env['CI'] !== 'true';

describe.skipIf(skip)(`replicas behind HAProxy${skip ? ' (SKIPPED: no /usr/sbin/haproxy)' : ''}`, () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster({
      config: {
        mcpServers: {
          echo: nodeServer(fixture('echo-secrets.mjs'), [], { env: { REPLICA: '${REPLICA}' }, sandbox: false }),
        },
        proxy: { quarantine: false, drainMs: 2000 },
      },
    });
  });

  afterAll(async () => {
    await cluster?.close();
  });

  it('spreads a 2026-07-28 client’s calls over every replica, each answered', async () => {
    const client = await eraClient(cluster.url, 'modern');
    const calls = Array.from({ length: 30 }, () =>
      client.callTool({ name: REPLICA_TOOL, arguments: { name: 'REPLICA' } }).then(replicaOf),
    );
    const answered = await Promise.all(calls);
    await client.close();
    const counts = Object.fromEntries(cluster.replicas.map((replica) => [replica.name, 0]));
    for (const name of answered) counts[name] = (counts[name] ?? 0) + 1;
    expect(Object.keys(counts).sort()).toEqual(['r1', 'r2', 'r3']);
    for (const count of Object.values(counts)) expect(count).toBeGreaterThan(0);
  });

  // A mount namespace (unshare -rm) makes the file read-only; in CI its absence fails rather than skips.
  it.skipIf(!readOnlyMountAvailable() && process.env['CI'] !== 'true')(
    'refuses a config change on the read-only file at once, saying why',
    () => {
      expect(cluster.readOnlyConfig).toBe(true);
      expect(cluster.replicas[0]!.log).toMatch(/read-only: its directory is not writable/);
      const started = Date.now();
      const mount = ['-rm', 'sh', '-c', 'mount --bind -o ro "$0" "$0" && exec "$@"', dirname(cluster.configPath)];
      const changed = spawnSync(
        'unshare',
        [...mount, process.execPath, BIN, 'exposure', 'default', 'search', '--config', cluster.configPath],
        { encoding: 'utf8', env: { ...process.env, SWITCHBOARD_NO_BROWSER: '1' } },
      );
      expect(changed.status).not.toBe(0);
      expect(changed.stderr + changed.stdout).toMatch(/is read-only .*Change it where it comes from/s);
      expect(Date.now() - started).toBeLessThan(5000);
    },
  );

  it('loses nothing in a rolling restart of all three replicas under load (SIGTERM: readyz 503 at once, exit 0)', async () => {
    const load = await startLoad(cluster.url, workers);
    await pause(300);
    for (const replica of cluster.replicas) {
      const stopped = cluster.stop(replica.name, 'SIGTERM');
      // Not ready at once, so the balancer routes away (or already closed, once drained).
      const readyz = () =>
        fetch(`http://127.0.0.1:${replica.port}/readyz`).then(
          (response) => response.status,
          () => 'closed',
        );
      const signalled = Date.now();
      let ready = await readyz();
      while (ready === 200 && Date.now() - signalled < 1000) ready = await readyz();
      expect([503, 'closed']).toContain(ready);
      expect(await stopped).toBe(0);
      expect(replica.log).toMatch(/drained in \d+ ms: every request in flight was answered/);
      await cluster.start(replica.name);
      await cluster.waitUp();
    }
    await pause(300);
    await load.stop();
    expect(errors(load.outcomes)).toEqual([]);
    const answeredBy = new Set(load.outcomes.map((outcome) => outcome.replica));
    expect([...answeredBy].sort()).toEqual(['r1', 'r2', 'r3']);
  });

  it('loses at most the calls in flight on a replica killed with SIGKILL; its 2025 sessions open again elsewhere', async () => {
    const load = await startLoad(cluster.url, workers);
    await pause(400);
    // The replica one 2025-era worker's session lives on.
    const victim = load.outcomes.find((outcome) => outcome.era === 'legacy' && outcome.replica)?.replica ?? 'r1';
    await cluster.stop(victim, 'SIGKILL');
    // Until its exit is seen, the dying process's socket may still take connections: in flight on it too.
    const killedAt = Date.now();
    // A 2025-era call cut by the kill may fail only at its own 3 s timeout; its session opens again after that.
    await waitUntil(() => load.reinitialized > 0, { timeoutMs: 15_000, description: 'a 2025 session opened again' });
    await pause(500);
    await load.stop();
    const failed = errors(load.outcomes);
    const report = JSON.stringify({ killedAt, failed }, null, 1);
    // Only calls sent before the kill may fail (in flight on the victim), at most one per worker.
    expect(failed.length, report).toBeLessThanOrEqual(workers.modern + workers.legacy);
    for (const outcome of failed) expect(outcome.sent, report).toBeLessThanOrEqual(killedAt);
    const after = load.outcomes.filter((outcome) => outcome.sent > killedAt);
    expect(after.filter((outcome) => outcome.replica).length).toBeGreaterThan(20);
    expect(after.some((outcome) => outcome.replica === victim)).toBe(false);
    // The 2025-era session on the victim got 404 from another replica, opened anew and went on there.
    expect(load.reinitialized).toBeGreaterThan(0);
    const legacyAfter = after.filter((outcome) => outcome.era === 'legacy' && outcome.replica);
    expect(legacyAfter.length).toBeGreaterThan(0);
  });
});
