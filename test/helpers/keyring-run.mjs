#!/usr/bin/env node
/**
 * Runs a command (e.g. `vitest run`) with a real OS keychain when this machine
 * has one to offer: if `dbus-run-session` and `gnome-keyring-daemon` are on
 * PATH, the command runs inside a private D-Bus session with a throwaway,
 * unlocked gnome-keyring (its files in a temp dir: only the daemon sees that
 * XDG_DATA_HOME; HOME and the rest of the environment are untouched), and
 * SWITCHBOARD_REQUIRE_KEYCHAIN=1 makes the keychain tests fail instead of
 * skip. Otherwise the command runs as is and those tests skip, saying why.
 *
 * Usage: node test/helpers/keyring-run.mjs <command> [args...]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: keyring-run.mjs <command> [args...]\n');
  process.exit(2);
}

const has = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
const available = process.env.SWITCHBOARD_KEYRING_RUN !== '1' && has('dbus-run-session') && has('gnome-keyring-daemon');

let keyringDir;
let child;
if (available) {
  keyringDir = mkdtempSync(join(tmpdir(), 'sb-keyring-'));
  const script = [
    // A fixed password unlocks the throwaway login keyring (created on first use).
    'printf pw | XDG_DATA_HOME="$SB_KEYRING_DIR" gnome-keyring-daemon --unlock --components=secrets >/dev/null',
    'exec "$@"',
  ].join('\n');
  process.stderr.write('keyring-run: running under dbus-run-session with a throwaway gnome-keyring\n');
  child = spawn('dbus-run-session', ['--', 'sh', '-c', script, 'sh', command, ...args], {
    stdio: 'inherit',
    env: {
      ...process.env,
      SB_KEYRING_DIR: keyringDir,
      SWITCHBOARD_KEYRING_RUN: '1',
      SWITCHBOARD_REQUIRE_KEYCHAIN: '1',
    },
  });
} else {
  if (process.env.SWITCHBOARD_KEYRING_RUN !== '1') {
    process.stderr.write('keyring-run: dbus-run-session or gnome-keyring-daemon not found; keychain tests will skip\n');
  }
  child = spawn(command, args, { stdio: 'inherit' });
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('error', (error) => {
  process.stderr.write(`keyring-run: cannot run ${command}: ${error.message}\n`);
  process.exitCode = 1;
});
child.on('exit', (code, signal) => {
  if (keyringDir) rmSync(keyringDir, { recursive: true, force: true });
  process.exitCode = code ?? (signal ? 1 : 0);
});
