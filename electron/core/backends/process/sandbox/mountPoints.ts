/**
 * The mount points a revoked grant leaves behind. To show a granted path
 * inside the private home or temp folder, bubblewrap first creates an empty
 * file or folder of that name in it (on the host, under
 * `sandboxes/<id>/home` or `tmp`). Once the grant is revoked, that empty
 * stand-in would still be there at the next launch: the server would read an
 * empty `~/.ssh/id_rsa` or write into an empty `/tmp/x/out` of its own
 * rather than be refused, and the refusal would never be explained. So each
 * bubblewrap launch records its stand-ins beside the private folders
 * (`sandboxes/<id>/mount-points.json`: paths only), and the next launch, in
 * this run or a later one, removes those it no longer mounts, when still
 * empty (with their emptied folders), and nothing else.
 */
import { readdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { SandboxPolicy } from './sandboxPolicy.js';

function isUnder(path: string, folder: string): boolean {
  return path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** Where a mount target's stand-in is on the host, and the private folder it is in. */
function standIn(policy: SandboxPolicy, target: string): { path: string; root: string } | undefined {
  if (isUnder(target, policy.home))
    return { path: join(policy.privateHome, relative(policy.home, target)), root: policy.privateHome };
  if (isUnder(target, '/tmp'))
    return { path: join(policy.privateTmp, relative('/tmp', target)), root: policy.privateTmp };
  return undefined;
}

/** Removes `path` if it is an empty file or folder; answers whether it did. */
function removeIfEmpty(path: string): boolean {
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      if (readdirSync(path).length > 0) return false;
      rmdirSync(path);
      return true;
    }
    if (!stat.isFile() || stat.size > 0) return false;
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The stand-ins a launch under `policy` makes, with the private folder each is in. */
function standIns(policy: SandboxPolicy): { path: string; root: string }[] {
  return policy.mounts.flatMap((mount) => standIn(policy, mount.target) ?? []);
}

/** Where a server's launches record their stand-ins. */
function recordOf(policy: SandboxPolicy): string {
  return join(dirname(policy.privateHome), 'mount-points.json');
}

/** Before a launch under `policy`: clears the empty stand-ins of the last launch's mounts it has not, and records its own. */
export function settleMountPoints(policy: SandboxPolicy): void {
  const current = standIns(policy);
  let previous: { path: string; root: string }[] = [];
  try {
    previous = JSON.parse(readFileSync(recordOf(policy), 'utf8')) as { path: string; root: string }[];
  } catch {
    // first launch, or an unreadable record: nothing to clear
  }
  const kept = new Set(current.map((standIn) => standIn.path));
  const roots = new Set([policy.privateHome, policy.privateTmp]);
  for (const { path: stale, root } of Array.isArray(previous) ? previous : []) {
    if (typeof stale !== 'string' || kept.has(stale) || !roots.has(root)) continue;
    let path = stale;
    while (isUnder(path, root) && removeIfEmpty(path)) path = dirname(path);
  }
  try {
    writeFileSync(recordOf(policy), JSON.stringify(current), { mode: 0o600 });
  } catch {
    // not recorded: a later revoke may leave an empty stand-in, which reads as an empty file
  }
}
