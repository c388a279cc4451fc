/**
 * What to do when keytar (the native module behind the OS keychain) cannot be
 * loaded. It compiles from source where no prebuilt binary can be fetched,
 * which needs a C++ toolchain, libsecret's headers on Linux, and Node's own
 * headers: Debian's nodejs has them in /usr/include/node, which node-gyp only
 * uses when told (`npm_config_nodedir=/usr`). Said at install (a postinstall
 * check), once at `serve` start, and in the UI (the keychain status reason).
 */

/** The fix, for this platform, in one sentence. */
export function keytarAdvice(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'linux') {
    return (
      'to build it, install libsecret-1-dev and pkg-config (Debian/Ubuntu; libsecret-devel on Fedora), ' +
      'then run `npm_config_nodedir=/usr npm rebuild keytar` (Node from Debian packages) or `npm rebuild keytar`'
    );
  }
  return 'to build it, run `npm rebuild keytar` (it needs a C++ toolchain: Xcode tools on macOS, Build Tools on Windows)';
}
