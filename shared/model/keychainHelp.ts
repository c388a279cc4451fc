/**
 * What the Clients screen says when the OS keychain is not available: the
 * problem in words and what to do about it, from the keychain's reason (a
 * keytar or libsecret message). Never a file path of this machine: the
 * reason may quote one (a module that did not load), which means nothing to
 * a user and is not theirs to see.
 */

/** The keychain problem as a user reads it. */
export interface KeychainHelp {
  /** What is wrong, in a few words. */
  problem: string;
  /** What to do about it (commands in backticks). */
  fix: string;
}

/** Absolute paths of two or more segments (`/home/x/y`, `C:\a\b`), not `/usr` in a command. */
const PATH = /(?:[A-Za-z]:)?[\\/](?:[\w.@+-]+[\\/])+[\w.@+-]*/g;

/** `text` with any file path replaced by "…". */
export function withoutPaths(text: string): string {
  return text.replace(PATH, '…');
}

const UNLOCK =
  'unlock the login keyring (the "Passwords and Keys" app, or log out and in again), then restart Switchboard';

/** The problem and its fix for a keychain `reason` (undefined: no reason given). */
export function keychainHelp(reason: string | undefined): KeychainHelp {
  const text = reason ?? '';
  const loadFailure = /^keytar could not be loaded \(.*\); (.*)$/s.exec(text);
  if (loadFailure?.[1]) {
    return { problem: 'the keychain module (keytar) is not built for this Node', fix: withoutPaths(loadFailure[1]) };
  }
  if (/org\.freedesktop\.secrets|secret service|not provided by any \.service/i.test(text)) {
    return {
      problem: 'no Secret Service (keyring) is running',
      fix: "install gnome-keyring (or turn on KeePassXC's Secret Service integration), log in to a desktop session, then restart Switchboard",
    };
  }
  // GDBus says "Could not connect: No such file or directory" when the session bus socket is not there.
  if (/d-?bus|\$DISPLAY|x11|could not connect/i.test(text)) {
    return {
      problem: 'there is no desktop (D-Bus) session to reach the keyring through',
      fix: 'run Switchboard in a desktop session, or start it with `dbus-run-session -- mcp-switchboard serve` after `gnome-keyring-daemon --unlock`',
    };
  }
  if (/locked|unlock|dismissed|prompt/i.test(text)) return { problem: 'the login keyring is locked', fix: UNLOCK };
  if (/did not answer within/i.test(text)) {
    return { problem: 'the keychain did not answer (it may be waiting for an unlock prompt)', fix: UNLOCK };
  }
  if (text === '' || text === 'no keychain configured') {
    return {
      problem: 'this instance runs without a keychain',
      fix: 'start Switchboard with the OS keychain available',
    };
  }
  return { problem: withoutPaths(text), fix: UNLOCK };
}
