/**
 * A server's sandbox in words and as edits of its config entry (issue #25):
 * the one line a card shows ("Sandboxed (bubblewrap): network none; …"), a
 * refusal ("blocked: read of …"), and the entry with the sandbox turned on or
 * off, or with exactly one refusal granted. Pure functions; the UI saves the
 * entry through `backends.update`, which restarts the server with it.
 */
import type { BackendSandbox, SandboxBlock } from '../../../../shared/model/health.js';
import type { SandboxSettingView } from '../../../../shared/model/sandboxViews.js';

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

/** One refusal, as a line. */
export function blockLine(block: SandboxBlock): string {
  if (block.kind === 'connect') return `blocked: connection to ${block.target}`;
  return `blocked: ${block.kind} of ${block.target}`;
}

/** The folder a path is in (`/` for a top-level one). */
export function folderOf(path: string): string {
  const at = path.replace(/\/+$/, '').lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
}

/** What the grant of one refusal adds, in words (the button's label). */
export function grantLabel(block: SandboxBlock): string {
  if (block.kind === 'read') return `Allow reading ${block.target}`;
  if (block.kind === 'write') return `Allow writing in ${folderOf(block.target)}`;
  return `Allow connections to ${block.target}`;
}

/** The entry's own sandbox setting, normalized (undefined: it has none, so `proxy.defaultSandbox` decides). */
export function entrySandbox(entry: Entry): SandboxSettingView | undefined {
  const value = entry['sandbox'];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return { enabled: value, read: [], write: [], network: 'none' };
  const raw = value as Partial<SandboxSettingView>;
  return {
    enabled: raw.enabled !== false,
    read: Array.isArray(raw.read) ? raw.read : [],
    write: Array.isArray(raw.write) ? raw.write : [],
    network: raw.network ?? 'none',
  };
}

/** The `sandbox` value for a setting: `true`/`false` when it has no grants, else the object. */
function sandboxValue(setting: SandboxSettingView): unknown {
  const plain = setting.read.length === 0 && setting.write.length === 0 && setting.network === 'none';
  if (plain) return setting.enabled;
  return {
    ...(setting.enabled ? {} : { enabled: false }),
    ...(setting.read.length > 0 ? { read: setting.read } : {}),
    ...(setting.write.length > 0 ? { write: setting.write } : {}),
    ...(setting.network !== 'none' ? { network: setting.network } : {}),
  };
}

/** `entry` with its sandbox turned on or off (its grants kept). */
export function withSandboxEnabled(entry: Entry, enabled: boolean): Entry {
  const current = entrySandbox(entry) ?? { enabled, read: [], write: [], network: 'none' as const };
  return { ...entry, sandbox: sandboxValue({ ...current, enabled }) };
}

/**
 * `entry` with exactly what `block` was refused granted: a read adds the path
 * to `read`; a write adds the path's folder to `write` (a new file needs its
 * folder writable); a connection adds its host to the network's list (no
 * change when the network is already `all`).
 */
export function withGrant(entry: Entry, block: SandboxBlock): Entry {
  const current = entrySandbox(entry) ?? { enabled: true, read: [], write: [], network: 'none' as const };
  const add = (list: string[], path: string) => (list.includes(path) ? list : [...list, path]);
  const next: SandboxSettingView =
    block.kind === 'read'
      ? { ...current, read: add(current.read, block.target) }
      : block.kind === 'write'
        ? { ...current, write: add(current.write, folderOf(block.target)) }
        : { ...current, network: withHost(current.network, block.target) };
  return { ...entry, sandbox: sandboxValue(next) };
}

/** A network setting that also lets `host` through. */
function withHost(network: SandboxSettingView['network'], host: string): SandboxSettingView['network'] {
  if (network === 'all') return 'all';
  if (network === 'none') return [host];
  return network.includes(host) ? network : [...network, host];
}

/** Whether a refusal is already granted by `entry` (its button is then not offered again). */
export function granted(entry: Entry, block: SandboxBlock): boolean {
  const setting = entrySandbox(entry);
  if (!setting) return false;
  if (block.kind === 'read') return setting.read.includes(block.target);
  if (block.kind === 'write') return setting.write.includes(folderOf(block.target));
  return setting.network === 'all' || (Array.isArray(setting.network) && setting.network.includes(block.target));
}
