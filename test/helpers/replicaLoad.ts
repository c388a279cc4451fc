/**
 * A steady load of tool calls through the cluster's balancer, in either era, for
 * the cluster tests and bench/replicas.ts: each worker calls `echo__echo_env`
 * (which answers the name of the replica whose backend ran it) in a loop and
 * writes down each outcome. A 2025-era worker whose session is gone (404: its
 * replica died or stopped) opens a new session and sends the call again, as a
 * client must; that call was never run, so sending it again answers it once.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CLUSTER_TOKEN } from './replicas.js';

export const REPLICA_TOOL = 'echo__echo_env';

/** One call's outcome. */
export interface CallOutcome {
  era: 'legacy' | 'modern';
  worker: number;
  /** When it was sent and answered, ms since the epoch. */
  sent: number;
  ended: number;
  /** The replica that answered, or the error. */
  replica?: string;
  error?: string;
}

/** A connected client of one era through `url`. */
export async function eraClient(url: string, era: 'legacy' | 'modern'): Promise<Client> {
  const client = new Client(
    { name: `replica-load-${era}`, version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const requestInit = { headers: { Authorization: `Bearer ${CLUSTER_TOKEN}` } };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
  return client;
}

/** The replica name an echo_env answer carries. */
export function replicaOf(result: unknown): string {
  const text = (result as { content?: { text?: string }[] }).content?.[0]?.text ?? '';
  return text.replace(/^REPLICA=/, '');
}

/** Whether `error` is the 404 of a session its replica no longer holds. */
export function sessionGone(error: unknown): boolean {
  const status = (error as { status?: number; data?: { status?: number } }).status;
  return status === 404 || /\b404\b|Session not found/.test(String((error as Error).message));
}

/** A new session, tried again for a while (a failed initialize ran nothing). */
async function reconnect(url: string, era: 'legacy' | 'modern'): Promise<Client> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await eraClient(url, era);
    } catch (error) {
      if (attempt >= 20) throw error;
      await pause(100);
    }
  }
}

/** A running load. */
export interface Load {
  outcomes: CallOutcome[];
  /** 2025-era sessions opened again after a 404. */
  reinitialized: number;
  /** Stops the workers after their current call; resolves once they all stopped. */
  stop(): Promise<void>;
}

/** Starts `modern` 2026-07-28 workers and `legacy` 2025-era workers calling through `url` back to back. */
export async function startLoad(
  url: string,
  workers: {
    modern: number;
    legacy: number;
    /** A pause between one worker's calls, ms (default none). */ paceMs?: number;
  },
): Promise<Load> {
  const outcomes: CallOutcome[] = [];
  let running = true;
  const load = { outcomes, reinitialized: 0 };
  const worker = async (era: 'legacy' | 'modern', index: number, first: Client): Promise<void> => {
    let client = first;
    while (running) {
      const sent = Date.now();
      try {
        const result = await client.callTool({ name: REPLICA_TOOL, arguments: { name: 'REPLICA' } }, { timeout: 3000 });
        outcomes.push({ era, worker: index, sent, ended: Date.now(), replica: replicaOf(result) });
      } catch (error) {
        if (era === 'legacy' && sessionGone(error)) {
          await client.close().catch(() => undefined);
          client = await reconnect(url, era);
          load.reinitialized += 1;
          continue; // the call never ran: send it again on the new session
        }
        outcomes.push({ era, worker: index, sent, ended: Date.now(), error: String((error as Error).message) });
      }
      if (workers.paceMs) await pause(workers.paceMs);
    }
    await client.close().catch(() => undefined);
  };
  // Every client connected first: the load is steady from the moment this resolves.
  const eras = [
    ...Array.from({ length: workers.modern }, () => 'modern' as const),
    ...Array.from({ length: workers.legacy }, () => 'legacy' as const),
  ];
  const clients = await Promise.all(eras.map((era) => reconnect(url, era)));
  const done = Promise.all(eras.map((era, index) => worker(era, index, clients[index]!)));
  return Object.assign(load, {
    outcomes,
    stop: async () => {
      running = false;
      await done;
    },
  });
}

/** Waits `ms`. */
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
