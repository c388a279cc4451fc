/**
 * The first-serve UI opening's decisions (host/firstOpen.ts) and the
 * `$BROWSER` convention (startHeadless.browserCommand), on a throwaway state dir.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { interactiveTerminal, openUiOnFirstServe, uiOpenedBefore } from '../../../electron/cli/firstOpen.js';
import { browserCommand } from '../../../electron/host/startHeadless.js';

describe('browserCommand', () => {
  it('takes the first entry of $BROWSER, putting the URL at %s or at the end', () => {
    expect(browserCommand({ BROWSER: 'firefox --new-tab:chromium' }, 'http://x/')).toEqual([
      'firefox',
      '--new-tab',
      'http://x/',
    ]);
    expect(browserCommand({ BROWSER: 'open-it --url=%s --quiet' }, 'http://x/')).toEqual([
      'open-it',
      '--url=http://x/',
      '--quiet',
    ]);
    expect(browserCommand({ BROWSER: 'none' }, 'http://x/')).toBeUndefined();
    expect(browserCommand({}, 'http://x/')).toBeUndefined();
  });
});

describe('openUiOnFirstServe', () => {
  let stateDir: string;
  let opened: string[];
  beforeEach(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'sb-first-open-unit-'));
    opened = [];
  });
  afterEach(() => rm(stateDir, { recursive: true, force: true }));

  const options = (extra: Partial<Parameters<typeof openUiOnFirstServe>[0]> = {}) => ({
    stateDir,
    config: '/home/user/.config/mcp-switchboard/config.json',
    environment: { DISPLAY: ':0' },
    noOpen: false,
    interactive: true,
    platform: 'linux' as const,
    loginUrl: () => `http://127.0.0.1:1/ui?login=${opened.length}`,
    openUrl: async (url: string) => void opened.push(url),
    ...extra,
  });

  it('opens once per config, remembering it in the state dir', async () => {
    expect(await openUiOnFirstServe(options())).toBe(true);
    expect(await openUiOnFirstServe(options())).toBe(false);
    expect(opened).toEqual(['http://127.0.0.1:1/ui?login=0']);
    expect(await uiOpenedBefore(stateDir, options().config)).toBe(true);
    expect(await openUiOnFirstServe(options({ config: '/elsewhere/config.json' }))).toBe(true);
  });

  it.each([
    ['--no-open', { noOpen: true }],
    ['no terminal', { interactive: false }],
    ['no display', { environment: {} }],
    ['SWITCHBOARD_NO_BROWSER', { environment: { DISPLAY: ':0', SWITCHBOARD_NO_BROWSER: '1' } }],
    ['BROWSER=none', { environment: { DISPLAY: ':0', BROWSER: 'none' } }],
  ])('does not open with %s, and remembers nothing', async (_label, extra) => {
    expect(await openUiOnFirstServe(options(extra))).toBe(false);
    expect(opened).toEqual([]);
    expect(await uiOpenedBefore(stateDir, options().config)).toBe(false);
  });

  it('treats SWITCHBOARD_ASSUME_TTY=1 as a terminal, and pipes as none', () => {
    const pipes = { stdin: { isTTY: false }, stdout: { isTTY: false } } as never;
    expect(interactiveTerminal({}, pipes)).toBe(false);
    expect(interactiveTerminal({ SWITCHBOARD_ASSUME_TTY: '1' }, pipes)).toBe(true);
    expect(interactiveTerminal({}, { stdin: { isTTY: true }, stdout: { isTTY: true } } as never)).toBe(true);
  });
});
