/**
 * The keychain warning's words: each known reason (keytar or libsecret)
 * becomes a problem and a fix a user can act on, and no reason ever brings a
 * path of this machine with it.
 */
import { describe, expect, it } from 'vitest';
import { keytarAdvice } from '../../../../electron/core/platform/index.js';
import { keychainHelp } from '../../../../shared/model/keychainHelp.js';

describe('keychainHelp', () => {
  it('turns a keytar load failure into the rebuild command, without the module path', () => {
    const reason = `keytar could not be loaded (Cannot find module '/home/ann/app/node_modules/keytar/build/Release/keytar.node'); ${keytarAdvice('linux')}`;
    const help = keychainHelp(reason);
    expect(help.problem).toContain('keytar');
    expect(help.fix).toContain('npm_config_nodedir=/usr npm rebuild keytar');
    expect(JSON.stringify(help)).not.toContain('/home/ann');
  });

  it('says to install gnome-keyring when no Secret Service runs', () => {
    const help = keychainHelp('The name org.freedesktop.secrets was not provided by any .service files');
    expect(help.problem).toMatch(/Secret Service/);
    expect(help.fix).toContain('gnome-keyring');
  });

  it('says to unlock the login keyring when it is locked or does not answer', () => {
    expect(keychainHelp('Cannot create an item in a locked collection').fix).toMatch(/unlock the login keyring/);
    expect(keychainHelp('the keychain did not answer within 10000 ms').fix).toMatch(/unlock the login keyring/);
  });

  it('names a missing D-Bus session', () => {
    expect(keychainHelp('Cannot autolaunch D-Bus without X11 $DISPLAY').problem).toMatch(/D-Bus/);
    // What libsecret reports when DBUS_SESSION_BUS_ADDRESS points at no socket: not "unlock the keyring".
    const noBus = keychainHelp('Could not connect: No such file or directory');
    expect(noBus.problem).toMatch(/D-Bus/);
    expect(noBus.fix).toContain('dbus-run-session');
  });

  it('keeps an unknown reason, with paths taken out', () => {
    const help = keychainHelp('failed to open /var/lib/secret/store.db: permission denied');
    expect(help.problem).toBe('failed to open …: permission denied');
  });
});
