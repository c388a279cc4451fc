/**
 * The OAuth sign-in as the user sees it in the browser: the authorization
 * server's login and consent pages (the oidc-provider fixture's plain HTML
 * forms, test/fixtures/oauth/authServer.mjs), then Switchboard's loopback
 * redirect page.
 */
import type { Locator, Page } from 'playwright-core';

const SLOW = { timeout: 30_000 };

/** One browser tab going through the sign-in. */
export class OAuthSignInPage {
  constructor(readonly page: Page) {}

  /** The loopback listener's answer ("… is authorized. You can close this window."). */
  get done(): Locator {
    return this.page.getByRole('heading', { name: /^Authorization (complete|failed)$/ });
  }

  /** Signs in as `login` and allows access (consent), waiting for the loopback page. */
  async signIn(login: string): Promise<void> {
    const signIn = this.page.getByRole('button', { name: 'Sign in' });
    await signIn.waitFor(SLOW);
    // The login form has one field (the account name), unlabelled in the fixture's markup.
    await this.page.getByRole('textbox').fill(login);
    await signIn.click();
    const allow = this.page.getByRole('button', { name: 'Allow' });
    await allow.or(this.done).first().waitFor(SLOW);
    if (await allow.isVisible()) await allow.click();
    await this.done.waitFor(SLOW);
  }

  /** The loopback page's text. */
  async message(): Promise<string> {
    return this.page.locator('body').innerText();
  }
}
