/**
 * Reading strace's record of a learned server (learnTrace.ts): reads and
 * writes by call and flags, paths resolved against their descriptors,
 * split calls joined, failures dropped (but remembered to mark a creation),
 * connect() addresses, and nothing of execve's arguments.
 */
import { describe, expect, it } from 'vitest';
import {
  decodeString,
  parseTrace,
  splitArguments,
} from '../../../../../../electron/core/backends/process/sandbox/learnTrace.js';

const trace = (...lines: string[]): string => lines.join('\n');

describe('parseTrace', () => {
  it('tells a read from a write by the open flags, and takes the real path from the result', () => {
    const { files } = parseTrace(
      trace(
        '5     openat(AT_FDCWD</srv>, "/home/u/notes.md", O_RDONLY|O_CLOEXEC) = 18</home/u/notes.md>',
        '5     openat(AT_FDCWD</srv>, "link.json", O_WRONLY|O_TRUNC|O_CLOEXEC, 0666) = 19</data/real.json>',
        '5     openat(AT_FDCWD</srv>, "/home/u/docs", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = 20</home/u/docs>',
      ),
    );
    expect(files).toEqual([
      { path: '/home/u/notes.md', kind: 'read', changedEntry: false, directory: false, call: 'openat' },
      { path: '/data/real.json', kind: 'write', changedEntry: false, directory: false, call: 'openat' },
      { path: '/home/u/docs', kind: 'read', changedEntry: false, directory: true, call: 'openat' },
    ]);
  });

  it('marks a creation: O_EXCL, or O_CREAT after the path was missing; and mkdir, rename, unlink', () => {
    const { files } = parseTrace(
      trace(
        '7 newfstatat(AT_FDCWD</w>, "/d/a.txt", 0x7ffd, 0) = -1 ENOENT (No such file or directory)',
        '7 openat(AT_FDCWD</w>, "/d/a.txt", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 21</d/a.txt>',
        '7 openat(AT_FDCWD</w>, "/d/b.txt", O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC, 0666) = 22</d/b.txt>',
        '7 openat(AT_FDCWD</w>, "/d/c.txt", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 23</d/c.txt>',
        '7 mkdir("/d/sub", 0777) = 0',
        '7 rename("/d/c.txt", "/d/sub/c.txt") = 0',
        '7 unlinkat(AT_FDCWD</w>, "old", 0) = 0',
      ),
    );
    expect(files.map((file) => [file.path, file.kind, file.changedEntry, file.directory])).toEqual([
      ['/d/a.txt', 'write', true, false],
      ['/d/b.txt', 'write', true, false],
      ['/d/c.txt', 'write', false, false],
      ['/d/sub', 'write', true, true],
      ['/d/c.txt', 'write', true, false],
      ['/d/sub/c.txt', 'write', true, false],
      ['/w/old', 'write', true, false],
    ]);
  });

  it('joins a call strace split across processes, per pid', () => {
    const { files } = parseTrace(
      trace(
        '11 openat(AT_FDCWD</a>, "/x/one", O_RDONLY <unfinished ...>',
        '12 mkdir("/x/two", 0700 <unfinished ...>',
        '11 <... openat resumed>) = 3</x/one>',
        '12 <... mkdir resumed>) = 0',
      ),
    );
    expect(files.map((file) => `${file.kind} ${file.path}`)).toEqual(['read /x/one', 'write /x/two']);
  });

  it('resolves a path against its descriptor, and decodes escapes', () => {
    const { files } = parseTrace(
      trace(
        '3 newfstatat(9</home/u/proj>, "src/a b.ts", {st_mode=S_IFREG|0644, st_size=1, ...}, 0) = 0',
        '3 readlinkat(AT_FDCWD</home/u>, "caf\\303\\251", "x", 4095) = 1',
        '3 newfstatat(AT_FDCWD</home/u>, "/home/u/.config", {st_mode=S_IFDIR|0755, st_size=1, ...}, 0) = 0',
        '3 newfstatat(3</etc/ld.so.cache>, "", {st_mode=S_IFREG|0644, st_size=1, ...}, AT_EMPTY_PATH) = 0',
      ),
    );
    // A folder's stat and an fstat of an open descriptor are not reads of anything new.
    expect(files.map((file) => `${file.kind} ${file.path}`)).toEqual([
      'read /home/u/proj/src/a b.ts',
      'read /home/u/café',
    ]);
  });

  it('drops failures, signals, exits and execve (whose arguments are only addresses)', () => {
    const summary = parseTrace(
      trace(
        '5 execve(0x7fff1396cfc0, 0x7fff1396e4a0, 0x7fff1396e4c0) = 0',
        '5 openat(AT_FDCWD</a>, "/root/.ssh/id_rsa", O_RDONLY) = -1 EACCES (Permission denied)',
        '5 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=12} ---',
        '5 +++ exited with 0 +++',
        '',
      ),
    );
    expect(summary).toEqual({ files: [], connects: [] });
  });

  it('records connect() to IPv4 and IPv6 addresses, not Unix sockets', () => {
    const { connects } = parseTrace(
      trace(
        '5 connect(19<socket:[14385]>, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("93.184.216.34")}, 16) = -1 ENETUNREACH (Network is unreachable)',
        '5 connect(20<socket:[1]>, {sa_family=AF_INET6, sin6_port=htons(8443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0',
        '5 connect(21<socket:[2]>, {sa_family=AF_UNIX, sun_path="/run/nscd/socket"}, 110) = 0',
      ),
    );
    expect(connects).toEqual([
      { address: '93.184.216.34', port: 443 },
      { address: '::1', port: 8443 },
    ]);
  });
});

describe('strace text', () => {
  it('splits arguments at top-level commas only', () => {
    expect(splitArguments('AT_FDCWD</a,b>, "x, y", {st_mode=S_IFREG, st_size=1}, 0')).toEqual([
      'AT_FDCWD</a,b>',
      '"x, y"',
      '{st_mode=S_IFREG, st_size=1}',
      '0',
    ]);
  });

  it('decodes C strings and refuses a cut one', () => {
    expect(decodeString('"a\\"b\\x41\\n"')).toBe('a"bA\n');
    expect(decodeString('"/very/long"...')).toBeUndefined();
    expect(decodeString('0x1234')).toBeUndefined();
  });
});
