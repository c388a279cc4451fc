/**
 * What a server touched, read from strace's record of it (learn mode,
 * learnRun.ts): each successful file system call as a read or a write of an
 * absolute path, and each connect() to an address. Pure: the text in, the
 * accesses out, so every kind of line strace writes is tested without a
 * process. strace runs as `strace -f -qq -y -s 4096 -e trace=%file,connect
 * -e raw=execve -e signal=none`: `-y` prints the path of every descriptor
 * (`AT_FDCWD</cwd>`, `3</dir>`, and an opened file's real path after `=`),
 * and `raw=execve` prints execve's arguments and environment as addresses,
 * so no argument or variable of the server (a token) is ever in the record.
 */
import { posix } from 'node:path';

/** One file system access. */
export interface FileAccess {
  path: string;
  kind: 'read' | 'write';
  /** The call made or removed an entry in the path's folder (mkdir, a new file, rename, unlink). */
  changedEntry: boolean;
  /** The path is a folder the call listed or made (open O_DIRECTORY, mkdir). */
  directory: boolean;
  /** The syscall, for explanations. */
  call: string;
}

/** One connect() to a network address (AF_INET/AF_INET6; Unix sockets are files). */
export interface AddressConnect {
  address: string;
  port: number;
}

/** Everything a trace says. */
export interface TraceSummary {
  files: FileAccess[];
  connects: AddressConnect[];
}

/** Calls that make or remove an entry of the named path's folder. */
const ENTRY_CALLS = new Set([
  'mkdir',
  'mkdirat',
  'rmdir',
  'unlink',
  'unlinkat',
  'rename',
  'renameat',
  'renameat2',
  'link',
  'linkat',
  'symlink',
  'symlinkat',
  'mknod',
  'mknodat',
  'creat',
]);

/** Calls that change what they name (the last path argument, or each for rename and link): entries, and attributes. */
const WRITE_CALLS = new Set([
  ...ENTRY_CALLS,
  'chmod',
  'fchmodat',
  'fchmodat2',
  'chown',
  'lchown',
  'fchownat',
  'truncate',
  'utime',
  'utimes',
  'utimensat',
  'futimesat',
  'setxattr',
  'lsetxattr',
  'removexattr',
  'lremovexattr',
]);

/** Calls whose path tells nothing a grant is needed for. */
const IGNORED_CALLS = new Set(['getcwd', 'execve', 'execveat', 'statfs', 'umount2', 'mount', 'pivot_root', 'chroot']);

/** The open calls: read or write by their flags. */
const OPEN_CALLS = new Set(['open', 'openat', 'openat2']);

/** Splits strace's argument list at top-level commas (outside strings, braces, brackets, parentheses). */
export function splitArguments(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (quoted) {
      if (char === '\\') at++;
      else if (char === '"') quoted = false;
      continue;
    }
    if (char === '"') quoted = true;
    else if (char === '{' || char === '[' || char === '(' || char === '<') depth++;
    else if (char === '}' || char === ']' || char === ')' || char === '>') depth--;
    else if (char === ',' && depth === 0) {
      parts.push(text.slice(start, at).trim());
      start = at + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last !== '') parts.push(last);
  return parts;
}

/** A C string as strace prints it (`"a\"b\x41"`, possibly `"..."...` when cut), decoded; undefined if not a string. */
export function decodeString(argument: string): string | undefined {
  const match = /^"((?:[^"\\]|\\.)*)"(\.\.\.)?$/s.exec(argument);
  if (!match || match[2]) return undefined; // a cut string is no path
  const bytes: number[] = [];
  const body = match[1] as string;
  for (let at = 0; at < body.length; at++) {
    const char = body[at] as string;
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const next = body[++at] as string;
    const simple: Record<string, number> = { n: 10, t: 9, r: 13, v: 11, f: 12, '"': 34, '\\': 92 };
    if (next in simple) bytes.push(simple[next] as number);
    else if (next === 'x') {
      bytes.push(parseInt(body.slice(at + 1, at + 3), 16));
      at += 2;
    } else if (/[0-7]/.test(next)) {
      const octal = /^[0-7]{1,3}/.exec(body.slice(at)) as RegExpExecArray;
      bytes.push(parseInt(octal[0], 8));
      at += octal[0].length - 1;
    } else bytes.push(...Buffer.from(next, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The path a descriptor argument carries (`AT_FDCWD</x>`, `3</x>`), or undefined. */
function descriptorPath(argument: string): string | undefined {
  const open = argument.indexOf('<');
  if (open < 0 || !argument.endsWith('>')) return undefined;
  const path = argument.slice(open + 1, -1);
  return path.startsWith('/') ? path : undefined;
}

/** An absolute path: as given, or under its descriptor's folder, or the process's folder. */
function absolute(path: string, base: string | undefined): string | undefined {
  if (path.startsWith('/')) return posix.normalize(path);
  if (!base) return undefined;
  return posix.normalize(posix.join(base, path));
}

/** One complete call: its name, arguments and result. */
interface Call {
  name: string;
  args: string[];
  result: string;
}

/** `name(args) = result` (after the pid), or undefined for a signal, exit or unparsable line. */
function parseCall(line: string): Call | undefined {
  const match = /^([a-z_0-9]+)\((.*)\)\s+=\s+(.*)$/s.exec(line);
  if (!match) return undefined;
  return { name: match[1] as string, args: splitArguments(match[2] as string), result: match[3] as string };
}

/** The file paths a call names, each with its base folder (from the descriptor before it, or the cwd). */
function namedPaths(call: Call, cwd: string | undefined): string[] {
  const paths: string[] = [];
  let base = cwd;
  for (const argument of call.args) {
    const folder = descriptorPath(argument);
    if (folder !== undefined) {
      base = folder;
      continue;
    }
    const text = decodeString(argument);
    if (text === undefined) continue;
    if (text !== '') {
      const path = absolute(text, base);
      if (path) paths.push(path);
    }
    base = cwd;
  }
  return paths;
}

/** The flags of an open call (the argument after the path; openat2's `{flags=...}`). */
function openFlags(call: Call): string {
  if (call.name === 'openat2') return /flags=([A-Z_|0-9x]+)/.exec(call.args.join(','))?.[1] ?? '';
  const at = call.args.findIndex((argument) => argument.startsWith('"'));
  return call.args[at + 1] ?? '';
}

/** The real path an opened descriptor result names (`= 3</real/path>`), if any. */
function resultPath(result: string): string | undefined {
  const match = /^\d+<(\/.*)>/.exec(result);
  return match ? match[1] : undefined;
}

/** Joins strace's `<unfinished ...>` / `<... resumed>` halves, per pid; yields `[pid, text]`. */
function* completeLines(text: string): Generator<[string, string]> {
  const pending = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const match = /^(\d+)\s+(.*)$/.exec(raw);
    const [pid, body] = match ? [match[1] as string, match[2] as string] : ['0', raw];
    if (body.startsWith('---') || body.startsWith('+++')) continue;
    const unfinished = /^(.*?)\s*<unfinished \.\.\.>$/.exec(body);
    if (unfinished) {
      pending.set(pid, unfinished[1] as string);
      continue;
    }
    const resumed = /^<\.\.\. [a-z_0-9]+ resumed>\s?(.*)$/.exec(body);
    if (resumed) {
      const head = pending.get(pid);
      pending.delete(pid);
      if (head !== undefined) yield [pid, head + (resumed[1] as string)];
      continue;
    }
    if (body.trim() !== '') yield [pid, body];
  }
}

/** An IPv4/IPv6 address and port from connect()'s sockaddr, if it is one. */
function addressOf(sockaddr: string): AddressConnect | undefined {
  const port = /sin6?_port=htons\((\d+)\)/.exec(sockaddr)?.[1];
  const v4 = /inet_addr\("([^"]+)"\)/.exec(sockaddr)?.[1];
  const v6 = /inet_pton\(AF_INET6,\s*"([^"]+)"/.exec(sockaddr)?.[1];
  const address = v4 ?? v6;
  return address && port ? { address, port: Number(port) } : undefined;
}

/**
 * Everything a trace records that the server did successfully (a call that
 * failed needed nothing it was not given: `ENOENT` while Node looks for a
 * module, say), except that a failed lookup of a path the server then
 * creates marks the creation.
 */
export function parseTrace(text: string): TraceSummary {
  const files: FileAccess[] = [];
  const connects: AddressConnect[] = [];
  const missing = new Set<string>();
  for (const [, line] of completeLines(text)) {
    const call = parseCall(line);
    if (!call || IGNORED_CALLS.has(call.name)) continue;
    const failed = call.result.startsWith('-1 ') || call.result.startsWith('? ');
    if (call.name === 'connect') {
      const address = addressOf(call.args[1] ?? '');
      if (address) connects.push(address);
      continue;
    }
    const cwd = descriptorPath(call.args.find((argument) => argument.startsWith('AT_FDCWD<')) ?? '');
    const paths = namedPaths(call, cwd);
    if (failed) {
      if (/ENOENT/.test(call.result)) for (const path of paths) missing.add(path);
      continue;
    }
    if (OPEN_CALLS.has(call.name)) {
      const flags = openFlags(call);
      const path = resultPath(call.result) ?? paths[0];
      if (!path) continue;
      const writes = /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_TMPFILE/.test(flags);
      const created =
        /O_CREAT/.test(flags) && (/O_EXCL/.test(flags) || missing.has(path) || missing.has(paths[0] ?? ''));
      files.push({
        path,
        kind: writes ? 'write' : 'read',
        changedEntry: created || /O_TMPFILE/.test(flags),
        directory: /O_DIRECTORY/.test(flags) && !writes,
        call: call.name,
      });
      missing.delete(path);
      continue;
    }
    if (WRITE_CALLS.has(call.name)) {
      // symlink(target, linkpath): only the link is written; rename and link write both.
      const written = call.name.startsWith('symlink') ? paths.slice(-1) : paths;
      for (const path of written) {
        files.push({
          path,
          kind: 'write',
          changedEntry: ENTRY_CALLS.has(call.name),
          directory: call.name.startsWith('mkdir'),
          call: call.name,
        });
        missing.delete(path);
      }
      continue;
    }
    // A folder's stat only asks whether it is there (a module lookup, a `mkdir -p`): not a read of its contents.
    if (/S_IFDIR/.test(line)) continue;
    for (const path of paths.slice(0, 1))
      files.push({ path, kind: 'read', changedEntry: false, directory: false, call: call.name });
  }
  return { files, connects };
}
