/**
 * When `mcp-switchboard ui` opens the link it prints: never when told not to
 * (SWITCHBOARD_NO_BROWSER, BROWSER=none), and on Linux only with a display.
 */
import { describe, expect, it } from 'vitest';
import { canOpenBrowser } from '../../../../electron/cli/commands/ui.js';

describe('canOpenBrowser', () => {
  it('honours SWITCHBOARD_NO_BROWSER and BROWSER=none everywhere', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(canOpenBrowser({ SWITCHBOARD_NO_BROWSER: '1', DISPLAY: ':0' }, platform)).toBe(false);
      expect(canOpenBrowser({ BROWSER: 'none', DISPLAY: ':0' }, platform)).toBe(false);
    }
  });

  it('needs a display on Linux, not on macOS or Windows', () => {
    expect(canOpenBrowser({}, 'linux')).toBe(false);
    expect(canOpenBrowser({ DISPLAY: ':0' }, 'linux')).toBe(true);
    expect(canOpenBrowser({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(true);
    expect(canOpenBrowser({ SWITCHBOARD_NO_BROWSER: '0' }, 'darwin')).toBe(true);
    expect(canOpenBrowser({}, 'win32')).toBe(true);
  });
});
