/**
 * Which protocol era each stdio server spoke when it was last probed, so a
 * server is probed once per launch line instead of at every start.
 *
 * Telling a 2026-07-28 stdio server from a 2025 one takes a `server/discover`
 * probe before `initialize`, and the SDK runs it on a disposable sibling
 * process (some servers exit on any request before `initialize`): the server
 * starts twice. Remembering the answer (by backend id and launch line, in
 * `<state>/backend-eras.json`) makes that a one-time cost; a changed command
 * or arguments probe again. Only answers are remembered: a probe that timed
 * out (a slow first `npx` download) proves nothing and is asked again next
 * start. The env is left out of the key: its values may be secrets.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { DiscoverResult } from '@modelcontextprotocol/client';
import { fileWriter, type AtomicWriter } from '../../platform/config/atomicWriter.js';
import type { BackendConfig } from '../../platform/config/schema.js';

/** What a probe found: a 2025-era server, or a 2026-07-28 one and its `server/discover` answer. */
export type EraVerdict = { kind: 'legacy' } | { kind: 'modern'; discover: DiscoverResult };

/** Remembered verdicts, by launch key. */
export interface IBackendEras {
  recall(key: string): EraVerdict | undefined;
  remember(key: string, verdict: EraVerdict): void;
  /** Drops a verdict that proved wrong (the server changed): it is probed again. */
  forget(key: string): void;
}

interface Stored {
  version: 1;
  eras: Record<string, EraVerdict>;
}

/** The launch key of a stdio backend (undefined for other transports, which probe in place). */
export function launchKey(config: BackendConfig): string | undefined {
  if (config.transport !== 'stdio') return undefined;
  const line = JSON.stringify([config.id, config.command, config.args, config.cwd ?? null]);
  return createHash('sha256').update(line).digest('hex').slice(0, 32);
}

/** Verdicts kept in one JSON file (read once, rewritten atomically on change). */
export class BackendEras implements IBackendEras {
  private eras: Record<string, EraVerdict> | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly writer: AtomicWriter = fileWriter,
  ) {}

  recall(key: string): EraVerdict | undefined {
    return this.loaded()[key];
  }

  remember(key: string, verdict: EraVerdict): void {
    const eras = this.loaded();
    if (JSON.stringify(eras[key]) === JSON.stringify(verdict)) return;
    eras[key] = verdict;
    this.save(eras);
  }

  forget(key: string): void {
    const eras = this.loaded();
    if (!(key in eras)) return;
    delete eras[key];
    this.save(eras);
  }

  private save(eras: Record<string, EraVerdict>): void {
    const text = `${JSON.stringify({ version: 1, eras } satisfies Stored, null, 2)}\n`;
    // Saved in order; a failed save only means probing again next start.
    this.saving = this.saving.then(() => this.writer.write(this.path, text)).catch(() => undefined);
  }

  /** Resolves once every change so far is on disk (tests, shutdown). */
  flushed(): Promise<void> {
    return this.saving;
  }

  private loaded(): Record<string, EraVerdict> {
    if (this.eras) return this.eras;
    this.eras = {};
    try {
      const stored = JSON.parse(readFileSync(this.path, 'utf8')) as Partial<Stored>;
      if (stored.version === 1 && stored.eras && typeof stored.eras === 'object') {
        for (const [key, verdict] of Object.entries(stored.eras)) {
          if (isVerdict(verdict)) this.eras[key] = verdict;
        }
      }
    } catch {
      // Missing or unreadable: every server is probed once more.
    }
    return this.eras;
  }
}

function isVerdict(value: unknown): value is EraVerdict {
  if (!value || typeof value !== 'object') return false;
  const verdict = value as { kind?: unknown; discover?: unknown };
  if (verdict.kind === 'legacy') return true;
  return verdict.kind === 'modern' && typeof verdict.discover === 'object' && verdict.discover !== null;
}
