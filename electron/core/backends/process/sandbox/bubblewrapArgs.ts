/**
 * A sandbox policy as a bubblewrap command line (Linux). bubblewrap does the
 * enforcing (namespaces, mounts, no new privileges); this file only says what
 * to mount where. The server runs in a new root holding nothing but the
 * policy's mounts, a private /tmp and home, a minimal /dev and its own /proc,
 * in its own user, PID, IPC and UTS namespaces, and in an empty network
 * namespace unless the network is allowed. `--die-with-parent` ends it with
 * the bwrap process we start, and `--new-session` keeps it off our terminal.
 */
import type { SandboxPolicy } from './sandboxPolicy.js';

/** The command line: `bwrap <these> -- <command> <args>`. */
export function bubblewrapArgs(policy: SandboxPolicy, command: string, args: string[]): string[] {
  const argv = ['--unshare-all', '--die-with-parent', '--new-session'];
  if (policy.network === 'all') argv.push('--share-net');
  argv.push('--dev', '/dev', '--proc', '/proc');
  argv.push('--bind', policy.privateTmp, '/tmp');
  argv.push('--bind', policy.privateHome, policy.home);
  for (const link of policy.links) argv.push('--symlink', link.target, link.path);
  for (const mount of policy.mounts) {
    const flag = mount.mode === 'rw' ? '--bind' : '--ro-bind';
    argv.push(mount.optional ? `${flag}-try` : flag, mount.source, mount.target);
  }
  argv.push('--setenv', 'HOME', policy.home, '--setenv', 'TMPDIR', '/tmp');
  argv.push('--chdir', policy.cwd, '--', command, ...args);
  return argv;
}
