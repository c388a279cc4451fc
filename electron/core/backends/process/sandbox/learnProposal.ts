/**
 * The smallest grant covering what a server did while it was learned
 * (learnRun.ts): from its traced file accesses (learnTrace.ts) and the hosts
 * it asked the recording proxy for, drop what its default sandbox already
 * gives it (sandboxPolicy.ts: system folders, its install folder, the folders
 * its arguments name, read-only; a private /tmp; `/proc`, `/dev`, `/sys`) and
 * collapse the rest: a file it only changed is granted alone, a folder it
 * made or removed entries in is granted whole (a server saving by renaming a
 * sibling over its file needs the folder: sandboxPolicy.ts writableMountOf),
 * a folder it listed, or read more than a few files of, is granted whole for
 * reading; a path under another grant is not repeated. Paths under the home
 * are written `~/...`, as the config takes them. Pure: no file system, no
 * process.
 */
import { posix } from 'node:path';
import type { SandboxBlock } from '../../../../../shared/model/health.js';
import type { TraceSummary } from './learnTrace.js';
import { accessOf, type SandboxPolicy } from './sandboxPolicy.js';

/** What a learned run proposes to add to a server's `sandbox` setting. */
export interface LearnedGrant {
  /** Paths to read (`sandbox.read`), `~/...` under the home. */
  read: string[];
  /** Paths to write (`sandbox.write`). */
  write: string[];
  /** Hosts it connected to (`sandbox.network`), `host:port`. */
  network: string[];
  /** Addresses it connected to directly rather than by name (no host list can name them; `network: "all"` would). */
  addresses: string[];
}

/** What the proposal is computed from. */
export interface ProposalInput {
  trace: TraceSummary;
  /** `host:port` of each connection the recording proxy let through. */
  hosts: string[];
  /** The server's default sandbox (no grants): what it has without asking. */
  policy: SandboxPolicy;
  /** Paths learn mode itself uses (its trace and proxy socket): never proposed. */
  ignore: string[];
  /** Hosts the default already allows (a package runner's registry). */
  defaultHosts: string[];
  /** Addresses that are learn mode's own (the recording proxy's port inside). */
  ownAddresses: string[];
}

/** Folders no grant is needed for: the kernel's, the sandbox's own. */
const PSEUDO = ['/proc', '/sys', '/dev'];

/** More files than this read in one folder: the folder is granted instead. */
const FILES_PER_FOLDER = 3;

function isUnder(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder === '/' ? '/' : `${folder}/`);
}

/** `~/x` for a path under the home. */
export function homeRelative(path: string, home: string): string {
  if (path === home) return '~';
  return isUnder(path, home) ? `~/${path.slice(home.length + 1)}` : path;
}

/** A folder whose whole grant would bring back too much (the home, `/`, a top-level folder such as /tmp). */
function tooBroad(folder: string, home: string): boolean {
  return folder === home || posix.dirname(folder) === '/' || folder === '/';
}

/** Why a path needs no grant: the default gives the access asked for. */
function coveredByDefault(policy: SandboxPolicy, path: string, kind: 'read' | 'write', created: Set<string>): boolean {
  if (PSEUDO.some((folder) => isUnder(path, folder))) return true;
  const mode = accessOf(policy, path);
  if (mode === 'rw' || (mode === 'ro' && kind === 'read')) return true;
  // A parent of a mount is there inside (bubblewrap makes it): looking at it needs nothing.
  if (kind === 'read' && policy.mounts.some((mount) => isUnder(mount.target, path))) return true;
  if (mode === 'ro') return false; // a default folder, read-only: writing it needs a grant
  // Unmounted, under the home: the private home is there instead of the user's files.
  if (isUnder(path, policy.home)) return false;
  // Unmounted, under /tmp: its private /tmp takes what it writes, and has what it wrote.
  if (isUnder(path, '/tmp')) return kind === 'write' || [...created].some((made) => isUnder(path, made));
  return false;
}

/** Each path once, none under another, sorted. */
function outermost(paths: Iterable<string>): string[] {
  const sorted = [...new Set(paths)].sort((a, b) => a.length - b.length || a.localeCompare(b));
  const kept: string[] = [];
  for (const path of sorted) if (!kept.some((folder) => isUnder(path, folder))) kept.push(path);
  return kept.sort();
}

/** The smallest grant covering the trace and the hosts. */
export function proposeGrant(input: ProposalInput): LearnedGrant {
  const { policy } = input;
  const ignored = (path: string): boolean => input.ignore.some((own) => isUnder(path, own));
  // What the server made (files and folders): its own reads of them need no grant of their own.
  const created = new Set(
    input.trace.files.filter((file) => file.kind === 'write' && file.changedEntry).map((file) => file.path),
  );
  const needed = input.trace.files.filter(
    (file) => !ignored(file.path) && !coveredByDefault(policy, file.path, file.kind, created),
  );

  // Writes: a folder it changed the entries of, whole; a folder it made, whole; else the file.
  const writes = new Set<string>();
  const writesIn = new Map<string, Set<string>>();
  for (const file of needed.filter((file) => file.kind === 'write')) {
    const folder = posix.dirname(file.path);
    if (file.directory) writes.add(file.path);
    else if (file.changedEntry && !tooBroad(folder, policy.home)) writes.add(folder);
    else writesIn.set(folder, (writesIn.get(folder) ?? new Set()).add(file.path));
  }
  for (const [, files] of writesIn) for (const file of files) writes.add(file);
  // A folder it made and a file it made in it: the folder it made is enough, unless that is too broad.
  const write = outermost(writes);

  // Reads: not under a write; a folder listed, or with many files read, whole.
  const readFiles = new Map<string, Set<string>>();
  const reads = new Set<string>();
  for (const file of needed.filter((file) => file.kind === 'read')) {
    if (write.some((folder) => isUnder(file.path, folder))) continue;
    if ([...created].some((made) => isUnder(file.path, made))) continue;
    if (file.directory) {
      reads.add(file.path);
      continue;
    }
    const folder = posix.dirname(file.path);
    readFiles.set(folder, (readFiles.get(folder) ?? new Set()).add(file.path));
  }
  for (const [folder, files] of readFiles) {
    if (files.size > FILES_PER_FOLDER && !tooBroad(folder, policy.home)) reads.add(folder);
    else for (const file of files) reads.add(file);
  }
  const read = outermost(reads).filter((path) => !write.some((folder) => isUnder(path, folder)));

  const network = [...new Set(input.hosts)]
    .filter((target) => !input.defaultHosts.some((host) => target === host || target.startsWith(`${host}:`)))
    .sort();
  const addresses = [...new Set(input.trace.connects.map((connect) => `${connect.address}:${connect.port}`))].filter(
    (address) => !input.ownAddresses.includes(address),
  );
  return {
    read: read.map((path) => homeRelative(path, policy.home)).sort(),
    write: write.map((path) => homeRelative(path, policy.home)).sort(),
    network,
    addresses: addresses.sort(),
  };
}

/**
 * The grant entry that lifts one refusal, for learning from refusals
 * (learnByRefusals.ts): a read grants the file, a write its folder (or the
 * folder itself), a connection its `host:port`; paths under the home are
 * written `~/...`. `isFolder` tells a folder from a file (the caller's file system).
 */
export function grantOfBlock(
  block: SandboxBlock,
  home: string,
  isFolder: (path: string) => boolean,
): { key: 'read' | 'write' | 'network'; entry: string } {
  if (block.kind === 'connect') return { key: 'network', entry: block.target };
  if (block.kind === 'read') return { key: 'read', entry: homeRelative(block.target, home) };
  const folder = isFolder(block.target) ? block.target : posix.dirname(block.target);
  return { key: 'write', entry: homeRelative(folder, home) };
}
