#!/usr/bin/env node
/**
 * postinstall: says at once, and what to do, when keytar (the OS keychain
 * module, an optional dependency built from source where no prebuilt binary
 * can be fetched) cannot be loaded; npm itself says nothing when an optional
 * dependency fails to build. Never fails the install: Switchboard runs
 * without a keychain (secrets and OAuth sign-in then fail, saying why), and
 * CI checks keytar separately (.ci/run). The same advice is in
 * electron/core/platform/secrets/keytarStore.ts (keytarAdvice), for serve and the UI.
 */
try {
  await import('keytar');
} catch (error) {
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  const fix =
    process.platform === 'linux'
      ? [
          '  sudo apt-get install libsecret-1-dev pkg-config     (Debian/Ubuntu; libsecret-devel on Fedora)',
          '  npm_config_nodedir=/usr npm rebuild keytar          (Node from Debian packages: headers in /usr/include/node)',
          '  or: npm rebuild keytar',
        ]
      : ['  npm rebuild keytar   (needs a C++ toolchain: Xcode tools on macOS, Build Tools on Windows)'];
  process.stderr.write(
    [
      '',
      'mcp-switchboard: keytar (the OS keychain module) could not be loaded:',
      `  ${reason}`,
      'Without it, {"secret": ...} values and OAuth sign-in do not work. To build it:',
      ...fix,
      '',
    ].join('\n') + '\n',
  );
}
