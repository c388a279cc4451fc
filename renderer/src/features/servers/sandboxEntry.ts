/**
 * A server's sandbox in words and as edits of its config entry (issue #25):
 * the one line a card shows ("Sandboxed (bubblewrap): network none; …"), the
 * label of the button that grants one refusal, and the entry with the sandbox
 * turned on or off. The refusal's sentence and the grants themselves are
 * shared with the host and the CLI (shared/model/sandboxBlock.ts,
 * sandboxGrants.ts). Pure functions.
 */
import type { BackendSandbox, SandboxBlock } from '../../../../shared/model/health.js';
import { entrySandbox, grantFor, holds, sandboxValue } from '../../../../shared/model/sandboxGrants.js';
import type { SandboxSettingView } from '../../../../shared/model/sandboxViews.js';

export { entrySandbox } from '../../../../shared/model/sandboxGrants.js';

type Entry = Record<string, unknown>;

/** A list of paths for a sentence ("nothing beyond the defaults" when empty). */
function paths(list: readonly string[]): string {
  return list.length === 0 ? 'defaults only' : list.join(', ');
}

/** Where it may connect, in words. */
export function networkWords(network: SandboxSettingView['network']): string {
  if (network === 'none') return 'network none';
  if (network === 'all') return 'network all';
  return `network ${network.join(', ')}`;
}

/** The sandbox a server runs under, in one line: never claims more than health says. */
export function sandboxLine(sandbox: BackendSandbox): string {
  const quarantine = sandbox.quarantine;
  if (quarantine?.mode === 'strict')
    return `Quarantined: runs under the strict sandbox (${sandbox.engine ?? 'bubblewrap'}; no network, no home, no grant) until you approve it`;
  if (quarantine?.mode === 'held')
    return `Quarantined: not started, since no sandbox can run here (${sandbox.reason ?? 'unknown'}); to start it unsandboxed while you review it: ${quarantine.command ?? ''}`;
  if (quarantine?.mode === 'unsandboxed') return 'Quarantined, not sandboxed: you chose to start it with your rights';
  if (sandbox.state === 'off') return 'Not sandboxed: runs with your rights';
  if (sandbox.state === 'unavailable')
    return `Sandbox unavailable: ${sandbox.reason ?? 'no sandbox can run here'} — not started`;
  return `Sandboxed (${sandbox.engine ?? 'bubblewrap'}): ${settingWords(sandbox)}`;
}

/** What a sandbox setting allows beyond the defaults, in words. */
export function settingWords(setting: Pick<SandboxSettingView, 'read' | 'write' | 'network'>): string {
  return `${networkWords(setting.network)}; reads ${paths(setting.read)}; writes ${paths(setting.write)}`;
}

/** What the grant of one refusal adds, in words (the Allow button's accessible name). */
export function grantLabel(block: SandboxBlock): string {
  if (block.kind === 'read') return `Allow reading ${block.target}`;
  if (block.kind === 'write') return `Allow writing to ${block.target}`;
  return `Allow connections to ${block.target}`;
}

/** `entry` with its sandbox turned on or off (its grants kept). */
export function withSandboxEnabled(entry: Entry, enabled: boolean): Entry {
  const current = entrySandbox(entry) ?? { enabled, read: [], write: [], network: 'none' as const };
  return { ...entry, sandbox: sandboxValue({ ...current, enabled }) };
}

/** Whether a refusal is already granted by `entry` (its button is then not offered again). */
export function granted(entry: Entry, block: SandboxBlock): boolean {
  return holds(entry, grantFor(block));
}
