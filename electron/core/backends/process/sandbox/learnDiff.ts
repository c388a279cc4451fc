/**
 * A learned grant (learnProposal.ts) set against a server's current
 * `sandbox` setting: what accepting it adds, what is already granted and was
 * used, and what is granted but went unused in the run; and the setting that
 * accepting writes (the current grants kept, the learned ones added; with
 * `replace`, only what the run used). Shown by `sandbox learn` and the card's
 * Learn permissions panel alike. Pure.
 */
import type { SandboxSetting } from '../../../platform/config/schema.js';
import type { LearnedGrant } from './learnProposal.js';

/** One line of the diff: `+` added by accepting, `=` granted and used, `?` granted and unused. */
export interface DiffLine {
  mark: '+' | '=' | '?';
  value: string;
}

/** The diff, by field. */
export interface GrantDiff {
  read: DiffLine[];
  write: DiffLine[];
  network: DiffLine[];
  /** Accepting turns the sandbox on (it was off or absent). */
  turnsOn: boolean;
  /** Accepting changes nothing. */
  unchanged: boolean;
}

/** Whether a granted path covers a learned one (the same, or a folder holding it). */
function covers(granted: string, learned: string): boolean {
  return learned === granted || learned.startsWith(granted.endsWith('/') ? granted : `${granted}/`);
}

/**
 * One field's lines: each current grant used (`=`: a learned path falls under
 * it, `used` says which count) or not (`?`), then each learned path not
 * already covered (`+`; `covered` says what else covers it).
 */
function fieldDiff(
  current: readonly string[],
  learned: readonly string[],
  match: (granted: string, path: string) => boolean,
  used: readonly string[] = learned,
  covered: (path: string) => boolean = () => false,
): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const granted of current)
    lines.push({ mark: used.some((path) => match(granted, path)) ? '=' : '?', value: granted });
  for (const path of learned)
    if (!current.some((granted) => match(granted, path)) && !covered(path)) lines.push({ mark: '+', value: path });
  return lines;
}

function hostCovers(granted: string, learned: string): boolean {
  const [host] = learned.split(':');
  if (granted === learned || granted === host) return true;
  return granted.startsWith('*.') && (host ?? '').endsWith(granted.slice(1));
}

/** The diff between `current` (undefined: no setting of its own) and the learned grant. */
export function grantDiff(current: SandboxSetting | undefined, learned: LearnedGrant): GrantDiff {
  const setting = current ?? { enabled: false, read: [], write: [], network: 'none' as const };
  // A write grant also covers reading: a learned read under one needs nothing more, and uses it.
  const read = fieldDiff(setting.read, learned.read, covers, learned.read, (path) =>
    setting.write.some((granted) => covers(granted, path)),
  );
  const write = fieldDiff(setting.write, learned.write, covers, [...learned.write, ...learned.read]);
  let network: DiffLine[];
  if (setting.network === 'all')
    network = [{ mark: learned.network.length > 0 || learned.addresses.length > 0 ? '=' : '?', value: 'all' }];
  else network = fieldDiff(setting.network === 'none' ? [] : setting.network, learned.network, hostCovers);
  const turnsOn = !setting.enabled;
  const added = [...read, ...write, ...network].some((line) => line.mark === '+');
  return { read, write, network, turnsOn, unchanged: !turnsOn && !added };
}

/** The setting accepting writes: on, the current grants kept (with `replace`: only those used) and the learned ones added. */
export function acceptedSetting(diff: GrantDiff, replace = false): SandboxSetting {
  const keep = (lines: DiffLine[]): string[] =>
    lines.filter((line) => line.mark !== '?' || !replace).map((line) => line.value);
  const read = keep(diff.read);
  const write = keep(diff.write);
  const hosts = keep(diff.network);
  const network = hosts.includes('all') ? 'all' : hosts.length === 0 ? 'none' : hosts;
  return { enabled: true, read, write, network };
}

/** The diff as text, one line per entry, for the CLI. */
export function renderDiff(diff: GrantDiff): string {
  const out: string[] = [];
  if (diff.turnsOn) out.push('+ sandbox: on');
  for (const field of ['read', 'write', 'network'] as const) {
    const lines = diff[field];
    out.push(`${field}:${lines.length === 0 ? ' (nothing beyond the defaults)' : ''}`);
    for (const line of lines)
      out.push(`  ${line.mark} ${line.value}${line.mark === '?' ? '   (granted, not used in this run)' : ''}`);
  }
  return `${out.join('\n')}\n`;
}
