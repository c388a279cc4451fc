/**
 * `SWITCHBOARD_NO_BROWSER` / `BROWSER=none`: serve (and `authorize`) never
 * open a browser for OAuth sign-in; the URL is still returned and shown.
 */
import { describe, expect, it } from 'vitest';
import { browserDisabled } from '../../../electron/host/startHeadless.js';

describe('browserDisabled', () => {
  it('is off by default and with an unrelated BROWSER', () => {
    expect(browserDisabled({})).toBe(false);
    expect(browserDisabled({ BROWSER: 'firefox' })).toBe(false);
    expect(browserDisabled({ SWITCHBOARD_NO_BROWSER: '' })).toBe(false);
    expect(browserDisabled({ SWITCHBOARD_NO_BROWSER: '0' })).toBe(false);
    expect(browserDisabled({ SWITCHBOARD_NO_BROWSER: 'false' })).toBe(false);
  });

  it('is on with SWITCHBOARD_NO_BROWSER set, or BROWSER=none', () => {
    expect(browserDisabled({ SWITCHBOARD_NO_BROWSER: '1' })).toBe(true);
    expect(browserDisabled({ SWITCHBOARD_NO_BROWSER: 'yes' })).toBe(true);
    expect(browserDisabled({ BROWSER: 'none' })).toBe(true);
  });
});
