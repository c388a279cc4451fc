/**
 * Telling, from what a sandboxed server says, what the sandbox refused it:
 * "blocked by the sandbox: read of ~/.aws/credentials", "blocked by the
 * sandbox: connection to api.github.com". bubblewrap refuses silently (a path that is not mounted
 * does not exist; a write to a read-only mount fails with EROFS; in an empty
 * network namespace names do not resolve and connections are refused), so the
 * words come from the server's own error messages (stderr, a failed start, a
 * tool's error result) in the forms Node, Python and libc print them. A path
 * counts only when it is outside what the policy mounts and exists on the
 * host (a file: a refused read; only its folder: a refused write): an
 * ordinary "no such file" is not a refusal.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SandboxBlock } from '../../../../../shared/model/health.js';
import { blockSentence } from '../../../../../shared/model/sandboxBlock.js';
import { accessOf, type SandboxPolicy } from './sandboxPolicy.js';

const PATH = String.raw`((?:/|~/)[^\s'"\`,;:)]*)`;

/** Missing files: Node's `ENOENT: ..., open '/x'`, Python's `[Errno 2] No such file or directory: '/x'`, shells' `/x: No such file`. */
const READ_PATTERNS = [
  new RegExp(String.raw`(?:ENOENT|EACCES|EPERM)[^'"]*['"]${PATH}['"]`, 'g'),
  new RegExp(String.raw`\[Errno (?:2|13)\][^'"]*['"]${PATH}['"]`, 'g'),
  new RegExp(String.raw`${PATH}: (?:No such file or directory|Permission denied)`, 'g'),
];

/** Writes: `EROFS: read-only file system, open '/x'`, Python's `[Errno 30]`, shells' `/x: Read-only file system`. */
const WRITE_PATTERNS = [
  new RegExp(String.raw`EROFS[^'"]*['"]${PATH}['"]`, 'g'),
  new RegExp(String.raw`\[Errno 30\][^'"]*['"]${PATH}['"]`, 'g'),
  new RegExp(String.raw`${PATH}: Read-only file system`, 'g'),
];

const HOST = String.raw`([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\])`;

/** Network: unresolved names (EAI_AGAIN/ENOTFOUND, Python's gaierror) and refused or unreachable addresses. */
const CONNECT_PATTERNS = [
  new RegExp(String.raw`getaddrinfo (?:EAI_AGAIN|ENOTFOUND) ${HOST}`, 'g'),
  new RegExp(String.raw`(?:ECONNREFUSED|ENETUNREACH|EHOSTUNREACH) ${HOST}(?::(\d+))?`, 'g'),
  new RegExp(String.raw`Could not resolve host: ${HOST}`, 'g'),
  new RegExp(String.raw`Failed to connect to ${HOST} port (\d+)`, 'g'),
];

/** What the sandbox refused, as found in one piece of text. */
export function findBlocked(text: string, policy: SandboxPolicy): SandboxBlock[] {
  const found = new Map<string, SandboxBlock>();
  const add = (block: SandboxBlock): void => {
    found.set(`${block.kind} ${block.target}`, block);
  };
  for (const pattern of WRITE_PATTERNS)
    for (const match of text.matchAll(pattern)) {
      const path = match[1] as string;
      if (accessOf(policy, path) !== 'rw') add({ kind: 'write', target: path });
    }
  for (const pattern of READ_PATTERNS)
    for (const match of text.matchAll(pattern)) {
      const path = match[1] as string;
      if (found.has(`write ${path}`)) continue;
      if (accessOf(policy, path) !== 'none') continue;
      // There on the host: hidden from the server. Only its folder there: a file it could not create.
      if (existsSync(path)) add({ kind: 'read', target: path });
      else if (existsSync(dirname(path)) && accessOf(policy, dirname(path)) === 'none')
        add({ kind: 'write', target: path });
    }
  if (policy.network !== 'all')
    for (const pattern of CONNECT_PATTERNS)
      for (const match of text.matchAll(pattern)) {
        const host = match[1] as string;
        add({ kind: 'connect', target: match[2] ? `${host}:${match[2]}` : host });
      }
  return [...found.values()];
}

/** The sentence for one refusal ("blocked by the sandbox: read of ~/.aws/credentials"). */
export function describeBlock(block: SandboxBlock, home?: string): string {
  return blockSentence(block, home);
}

/**
 * One violation srt reported (srtEngine.ts) as a refusal: its proxies'
 * `deny network-outbound api.github.com:443 (host is not on the allow list)`,
 * and on macOS the sandbox log's `deny(1) file-read-data /Users/u/.aws/credentials`
 * (`file-write-*`: a write). Anything else (a signal, an IPC lookup) is no
 * refusal a grant could lift: undefined.
 */
export function blockOfViolation(line: string): SandboxBlock | undefined {
  const network = /deny network-outbound (\S+)/.exec(line);
  // host:port, as our own proxy reports it (hostFilterProxy.ts).
  if (network) return { kind: 'connect', target: network[1] as string };
  const file = /deny(?:\(\d+\))? (file-read|file-write)[\w*-]* (\/\S.*?)\s*$/.exec(line);
  if (!file) return undefined;
  return { kind: file[1] === 'file-write' ? 'write' : 'read', target: file[2] as string };
}
