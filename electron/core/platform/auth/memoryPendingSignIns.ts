/**
 * Sign-in links and flows in progress in this process's memory (one
 * process; replicas keep them in Redis): at most a thousand, the oldest
 * dropped first, each gone after its time.
 */
import type { PendingKind, PendingSignIns } from './callerRecords.js';

/** At most this many links and flows are pending. */
const MAX_PENDING = 1000;

export class MemoryPendingSignIns implements PendingSignIns {
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();

  async put(kind: PendingKind, id: string, value: string, ttlMs: number): Promise<void> {
    this.entries.set(`${kind}:${id}`, { value, expiresAt: Date.now() + ttlMs });
    while (this.entries.size > MAX_PENDING) this.entries.delete(this.entries.keys().next().value as string);
  }

  async take(kind: PendingKind, id: string): Promise<string | undefined> {
    const entry = this.entries.get(`${kind}:${id}`);
    this.entries.delete(`${kind}:${id}`);
    return entry && entry.expiresAt > Date.now() ? entry.value : undefined;
  }

  async has(kind: PendingKind, id: string): Promise<boolean> {
    return (this.entries.get(`${kind}:${id}`)?.expiresAt ?? 0) > Date.now();
  }
}
