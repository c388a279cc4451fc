/**
 * The grant that lifts exactly one sandbox refusal, and a server's config
 * entry with a grant added or taken away: a read adds its path to
 * `sandbox.read`, a write its path to `sandbox.write` (the sandbox mounts a
 * file's folder when it must: sandboxPolicy.ts), a connection its host to
 * the network's list. The UI's Allow and Revoke buttons, `mcp-switchboard
 * sandbox allow|revoke` and the host's `sandbox.grant|revoke` all use these,
 * so each grant means one thing. Pure functions on plain data.
 */
import type { SandboxBlock } from './health.js';
import type { SandboxGrant, SandboxSettingView } from './sandboxViews.js';

export type { SandboxGrant } from './sandboxViews.js';

/** The kinds of grant, in the order they are shown. */
export const GRANT_KINDS = ['read', 'write', 'host'] as const;

type Entry = Record<string, unknown>;

/** The grant that lifts `block` exactly. */
export function grantFor(block: SandboxBlock): SandboxGrant {
  return { kind: block.kind === 'connect' ? 'host' : block.kind, target: block.target };
}

/** The grant in words: "read ~/.aws/credentials", "host api.github.com". */
export function grantWords(grant: SandboxGrant): string {
  return `${grant.kind} ${grant.target}`;
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
export function sandboxValue(setting: SandboxSettingView): unknown {
  const plain = setting.read.length === 0 && setting.write.length === 0 && setting.network === 'none';
  if (plain) return setting.enabled;
  return {
    ...(setting.enabled ? {} : { enabled: false }),
    ...(setting.read.length > 0 ? { read: setting.read } : {}),
    ...(setting.write.length > 0 ? { write: setting.write } : {}),
    ...(setting.network !== 'none' ? { network: setting.network } : {}),
  };
}

/** Every grant a setting holds beyond the defaults (`network: "all"` is one host grant of `*`). */
export function grantsOf(setting: SandboxSettingView | undefined): SandboxGrant[] {
  if (!setting) return [];
  const hosts = setting.network === 'all' ? ['*'] : setting.network === 'none' ? [] : setting.network;
  return [
    ...setting.read.map((target) => ({ kind: 'read' as const, target })),
    ...setting.write.map((target) => ({ kind: 'write' as const, target })),
    ...hosts.map((target) => ({ kind: 'host' as const, target })),
  ];
}

/** Whether the entry already holds `grant`. */
export function holds(entry: Entry, grant: SandboxGrant): boolean {
  const setting = entrySandbox(entry);
  if (!setting) return false;
  if (grant.kind === 'read') return setting.read.includes(grant.target);
  if (grant.kind === 'write') return setting.write.includes(grant.target);
  return setting.network === 'all' || (Array.isArray(setting.network) && setting.network.includes(grant.target));
}

/**
 * `entry` with `grant` added; its sandbox stays on or off as it was (an entry
 * with no setting of its own gets one, `enabled` as the default put it: `inForce`).
 */
export function withGrant(entry: Entry, grant: SandboxGrant, inForce = true): Entry {
  const current = entrySandbox(entry) ?? { enabled: inForce, read: [], write: [], network: 'none' as const };
  const add = (list: string[]) => (list.includes(grant.target) ? list : [...list, grant.target]);
  const next: SandboxSettingView =
    grant.kind === 'read'
      ? { ...current, read: add(current.read) }
      : grant.kind === 'write'
        ? { ...current, write: add(current.write) }
        : {
            ...current,
            network: current.network === 'all' ? 'all' : add(current.network === 'none' ? [] : current.network),
          };
  return { ...entry, sandbox: sandboxValue(next) };
}

/** `entry` without `grant` (a last host taken away leaves the network `none`; `all` revoked as `*` too). */
export function withoutGrant(entry: Entry, grant: SandboxGrant): Entry {
  const current = entrySandbox(entry);
  if (!current) return entry;
  const drop = (list: string[]) => list.filter((item) => item !== grant.target);
  let network = current.network;
  if (grant.kind === 'host') {
    if (network === 'all') network = grant.target === '*' ? 'none' : 'all';
    else if (Array.isArray(network)) {
      const left = drop(network);
      network = left.length > 0 ? left : 'none';
    }
  }
  const next: SandboxSettingView = {
    ...current,
    read: grant.kind === 'read' ? drop(current.read) : current.read,
    write: grant.kind === 'write' ? drop(current.write) : current.write,
    network,
  };
  return { ...entry, sandbox: sandboxValue(next) };
}
