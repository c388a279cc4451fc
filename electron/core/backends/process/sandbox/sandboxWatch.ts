/**
 * One server's sandbox as health shows it, and what the sandbox refused it.
 * Owned by the server's supervisor (like its stderr tail, it outlives each
 * connection); each launch says what it ran under, and every line the server
 * writes to stderr, or error it answers with, is read for refusals
 * (blockedAccess.ts), and so is every violation srt reports for it (macOS
 * and Windows: srtEngine.ts). Bounded: the 20 newest refusals.
 *
 * A call asks what was refused while it ran (`mark`, then `since`): every
 * refusal heard, a repeat of one already listed too, is counted, so a tool
 * that fails for a refusal its server met before is still told why.
 */
import type { BackendSandbox, SandboxBlock } from '../../../../../shared/model/health.js';
import { blockOfViolation, findBlocked } from './blockedAccess.js';
import type { SandboxPolicy } from './sandboxPolicy.js';
import { HostFilterProxy } from './hostFilterProxy.js';

const MAX_BLOCKS = 20;

/** Read at most this much of one piece of text (a huge error result costs nothing more). */
const MAX_SCANNED_CHARS = 16_384;

export class SandboxWatch {
  private view: BackendSandbox | undefined;
  private policy: SandboxPolicy | undefined;
  /** The filtering proxy of a server whose network is a list of hosts (kept across its restarts). */
  private proxy: Promise<HostFilterProxy> | undefined;
  /** srt: forgets the current launch (its host list, its violations). */
  private release: (() => void) | undefined;
  /** Refusals as they were heard (repeats included), numbered, for the calls that ask (the 20 newest). */
  private heardSince: { at: number; block: SandboxBlock }[] = [];
  private heardCount = 0;

  /** @param onBlocked told when a new refusal is found (the owner republishes health) */
  constructor(private readonly onBlocked: (block: SandboxBlock) => void = () => undefined) {}

  /** A launch: what it runs under (`policy` when sandboxed). Earlier refusals are kept until the setting changes. */
  launched(view: Omit<BackendSandbox, 'blocked'>, policy?: SandboxPolicy, release?: () => void): void {
    if (this.release !== release) this.release?.();
    this.release = release;
    const same =
      this.view && JSON.stringify({ ...this.view, blocked: [] }) === JSON.stringify({ ...view, blocked: [] });
    this.view = { ...view, blocked: same ? (this.view?.blocked ?? []) : [], ...(policy ? { home: policy.home } : {}) };
    this.policy = policy;
  }

  /** Reads a server's words for refusals (only while it runs sandboxed); answers those it found. */
  scan(text: string): SandboxBlock[] {
    if (!this.policy || !this.view || text.length === 0) return [];
    const found = findBlocked(text.slice(0, MAX_SCANNED_CHARS), this.policy);
    for (const block of found) this.add(block);
    return found;
  }

  /** Where a call starts counting refusals from (see `since`). */
  mark(): number {
    return this.heardCount;
  }

  /** The refusals heard after `mark` (each once). */
  since(mark: number): SandboxBlock[] {
    const found: SandboxBlock[] = [];
    for (const { at, block } of this.heardSince)
      if (at >= mark && !found.some((seen) => seen.kind === block.kind && seen.target === block.target))
        found.push(block);
    return found;
  }

  /** The home folder the server was given (refusals under it are said as `~/...`). */
  get home(): string | undefined {
    return this.policy?.home;
  }

  /** A refusal srt reported for this server (`deny network-outbound host:443 ...`, a sandbox log line). */
  violation(line: string): void {
    if (!this.view) return;
    const block = blockOfViolation(line);
    if (block) this.add(block);
  }

  /**
   * Opens (or updates) the filtering proxy a launch under `policy` goes out
   * through; its refusals are recorded here. Nothing without a host list.
   */
  async openProxy(policy: SandboxPolicy): Promise<void> {
    const { proxySocket, network } = policy;
    if (!proxySocket || !Array.isArray(network)) return this.closeProxy();
    const current = this.proxy ? await this.proxy.catch(() => undefined) : undefined;
    if (current && current.socketPath === proxySocket) return current.allow(network);
    await current?.close();
    this.proxy = HostFilterProxy.open(proxySocket, network, (target) => this.add({ kind: 'connect', target }));
    this.proxy.catch(() => (this.proxy = undefined));
    await this.proxy;
  }

  /** Closes the proxy (the server is stopped for good, or no longer has a host list). */
  async closeProxy(): Promise<void> {
    this.release?.();
    this.release = undefined;
    const proxy = this.proxy;
    this.proxy = undefined;
    await (await proxy?.catch(() => undefined))?.close();
  }

  private add(block: SandboxBlock): void {
    if (!this.view) return;
    this.heardSince = [...this.heardSince, { at: this.heardCount++, block }].slice(-MAX_BLOCKS);
    const view = this.view;
    if (view.blocked.some((seen) => seen.kind === block.kind && seen.target === block.target)) return;
    view.blocked = [...view.blocked, block].slice(-MAX_BLOCKS);
    this.onBlocked(block);
  }

  /** The view for health (undefined until the first launch). */
  snapshot(): BackendSandbox | undefined {
    return this.view && { ...this.view, blocked: [...this.view.blocked] };
  }
}
