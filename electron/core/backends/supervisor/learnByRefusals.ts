/**
 * Learn mode where nothing can record what a server touches while letting it
 * (macOS and Windows, under srt; Linux without strace): it learns from what
 * the sandbox refuses instead. The server runs under its sandbox with no
 * grant, is driven as learnRun.ts drives it (initialize, every list, the
 * calls asked for, the window), and each refusal heard (srt's record: the
 * macOS sandbox log and its proxies' denials; the server's own error words:
 * blockedAccess.ts) becomes a grant; it runs again under those grants, until
 * a run meets no new refusal or MAX_ROUNDS runs are done. A server that stops
 * at the first refused read is learned one refusal per run; a refusal it
 * never names (a silent fallback) is not learned, as the docs say.
 *
 * The proposal is the grants that lifted a refusal and nothing else: a read
 * of a file is granted alone, a refused write grants the file's folder (a
 * server saving by renaming a sibling over its file needs it), a connection
 * its `host:port`. Nothing the server said is kept but those paths and hosts.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import type { SandboxSetting } from '../../platform/config/schema.js';
import { grantOfBlock, type LearnedGrant } from '../process/sandbox/learnProposal.js';
import { sandboxedLaunch } from '../process/sandbox/sandboxedLaunch.js';
import { SandboxWatch } from '../process/sandbox/sandboxWatch.js';
import { GroupStdioTransport } from '../transport/stdioTransport.js';
import {
  driveLearned,
  learnFailure,
  MAX_MESSAGE_BYTES,
  type LearnDriven,
  type LearnRequest,
  type LearnResult,
} from './learnRun.js';

/** How many runs a learn may take (each one lifts what the one before was refused). */
export const MAX_ROUNDS = 6;

/** Learns a server's grant from what its sandbox refuses, run after run. */
export async function learnByRefusals(request: LearnRequest): Promise<LearnResult> {
  const started = performance.now();
  const { launch } = request;
  const signal = AbortSignal.any([AbortSignal.timeout(request.timeoutMs), ...(request.signal ? [request.signal] : [])]);
  const home = launch.env['HOME'] || homedir();
  const grant: LearnedGrant = { read: [], write: [], network: [], addresses: [] };
  const context = { stateDir: request.stateDir, extraPath: request.extraPath };
  for (let round = 1; ; round++) {
    const setting: SandboxSetting = {
      enabled: true,
      read: [...grant.read],
      write: [...grant.write],
      network: grant.network.length > 0 ? [...grant.network] : 'none',
    };
    const watch = new SandboxWatch();
    let transport: GroupStdioTransport | undefined;
    let driven: LearnDriven | undefined;
    let failure: unknown;
    // No sandbox here, or its packages could not be fetched: said as it is (a SwitchboardError), not learned from.
    const line = await sandboxedLaunch(launch, setting, context, (violation) => watch.violation(violation));
    try {
      if (line.policy) await watch.openProxy(line.policy);
      watch.launched(line.view, line.policy, line.release);
      transport = new GroupStdioTransport({
        command: line.command,
        args: line.args,
        env: { ...launch.env, ...line.env },
        ...((line.cwd ?? launch.cwd) === undefined ? {} : { cwd: line.cwd ?? launch.cwd }),
        maxMessageBytes: MAX_MESSAGE_BYTES,
        backendId: launch.id,
      });
      transport.stderr.on('data', (chunk: Buffer) => watch.scan(chunk.toString('utf8')));
      driven = await driveLearned(transport, request, signal, (text) => watch.scan(text));
    } catch (error) {
      if (signal.aborted) throw learnFailure(error, request, signal);
      failure = error;
    } finally {
      await transport?.close().catch(() => undefined);
      await watch.closeProxy().catch(() => undefined);
    }
    let lifted = 0;
    for (const block of watch.snapshot()?.blocked ?? []) {
      const { key, entry } = grantOfBlock(block, home, isFolder);
      if (grant[key].includes(entry)) continue;
      grant[key].push(entry);
      lifted++;
    }
    if (lifted === 0 || round >= MAX_ROUNDS) {
      if (!driven) throw learnFailure(failure, request, signal);
      return { grant, ...driven, durationMs: Math.round(performance.now() - started) };
    }
  }
}

/** Whether `path` is a folder on this machine. */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
