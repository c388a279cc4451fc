/**
 * One server's sandbox as health shows it, and what the sandbox refused it.
 * Owned by the server's supervisor (like its stderr tail, it outlives each
 * connection); each launch says what it ran under, and every line the server
 * writes to stderr, or error it answers with, is read for refusals
 * (blockedAccess.ts). Bounded: the 20 newest refusals.
 */
import type { BackendSandbox, SandboxBlock } from '../../../../../shared/model/health.js';
import { findBlocked } from './blockedAccess.js';
import type { SandboxPolicy } from './sandboxPolicy.js';

const MAX_BLOCKS = 20;

/** Read at most this much of one piece of text (a huge error result costs nothing more). */
const MAX_SCANNED_CHARS = 16_384;

export class SandboxWatch {
  private view: BackendSandbox | undefined;
  private policy: SandboxPolicy | undefined;

  /** @param onBlocked told when a new refusal is found (the owner republishes health) */
  constructor(private readonly onBlocked: (block: SandboxBlock) => void = () => undefined) {}

  /** A launch: what it runs under (`policy` when sandboxed). Earlier refusals are kept until the setting changes. */
  launched(view: Omit<BackendSandbox, 'blocked'>, policy?: SandboxPolicy): void {
    const same =
      this.view && JSON.stringify({ ...this.view, blocked: [] }) === JSON.stringify({ ...view, blocked: [] });
    this.view = { ...view, blocked: same ? (this.view?.blocked ?? []) : [] };
    this.policy = policy;
  }

  /** Reads a server's words for refusals (only while it runs sandboxed). */
  scan(text: string): void {
    if (!this.policy || !this.view || text.length === 0) return;
    for (const block of findBlocked(text.slice(0, MAX_SCANNED_CHARS), this.policy)) this.add(block);
  }

  private add(block: SandboxBlock): void {
    const view = this.view as BackendSandbox;
    if (view.blocked.some((seen) => seen.kind === block.kind && seen.target === block.target)) return;
    view.blocked = [...view.blocked, block].slice(-MAX_BLOCKS);
    this.onBlocked(block);
  }

  /** The view for health (undefined until the first launch). */
  snapshot(): BackendSandbox | undefined {
    return this.view && { ...this.view, blocked: [...this.view.blocked] };
  }
}
