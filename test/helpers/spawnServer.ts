/**
 * Starting HTTP MCP servers as real child processes for tests, and waiting
 * until they say they listen.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { once } from 'node:events';

/** A server child process and how to stop it. */
export interface SpawnedServer {
  child: ChildProcess;
  /** The first match of the `ready` pattern. */
  match: RegExpMatchArray;
  stop(): Promise<void>;
}

/** A port that was free a moment ago on 127.0.0.1 (for servers that cannot report the port they got). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/**
 * Spawns `node <args>` and resolves once stdout or stderr prints a line
 * matching `ready`; rejects if the child exits first or after `timeoutMs`.
 */
export async function spawnServer(
  args: string[],
  ready: RegExp,
  env: Record<string, string> = {},
  timeoutMs = 15_000,
): Promise<SpawnedServer> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  };
  let output = '';
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ${ready} within ${timeoutMs} ms; output:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const found = output.match(ready);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before it was ready; output:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { child, match, stop };
}
