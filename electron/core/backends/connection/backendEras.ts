/**
 * The stdio servers that cannot be probed for their protocol era, so the
 * probe is not paid again at every start.
 *
 * Telling a 2026-07-28 stdio server from a 2025 one takes a `server/discover`
 * request before `initialize`, on the server's own pipe. A 2026 server
 * answers it; most 2025 servers answer with an error, and get `initialize`
 * at once: both cost one round trip, so they are probed at every start (a
 * server updated to 2026 is then spoken to in 2026 at once). Two kinds of
 * 2025 server make the probe costly: one that ignores it (the probe waits out
 * its timeout) and one that exits on it (that start fails). Those are
 * remembered, by backend id and launch line, in `<state>/backend-eras.json`,
 * and go straight to `initialize` from then on; a changed command or
 * arguments probe again. The env is left out of the key: its values may be
 * secrets.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileWriter, type AtomicWriter } from '../../platform/config/atomicWriter.js';
import type { BackendConfig } from '../../platform/config/schema.js';

/** Why a stdio server is started without a probe: it ignored one, or exited on it. */
export interface EraVerdict {
  kind: 'legacy';
  probe: 'ignored' | 'exited';
}

/** Remembered verdicts, by launch key. */
export interface IBackendEras {
  recall(key: string): EraVerdict | undefined;
  remember(key: string, verdict: EraVerdict): void;
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
  const verdict = value as { kind?: unknown; probe?: unknown };
  return verdict.kind === 'legacy' && (verdict.probe === 'ignored' || verdict.probe === 'exited');
}
