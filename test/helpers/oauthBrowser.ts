/**
 * A minimal "browser" for OAuth tests over plain HTTP: follows redirects,
 * keeps cookies per origin, and submits the fixture authorization server's
 * login and consent forms, until a page that is neither (the loopback
 * redirect's "you can close this window" page, or an error).
 */

/** The last page the browser landed on. */
export interface BrowserResult {
  url: string;
  status: number;
  body: string;
}

/**
 * Opens `startUrl` and clicks through login and consent. `login` is the
 * account to sign in as; with `stopAt`, a redirect to a URL starting with it
 * is returned (status 0) instead of followed.
 */
export async function completeAuthorization(
  startUrl: string,
  options: { login?: string; stopAt?: string } = {},
): Promise<BrowserResult> {
  const login = options.login ?? 'test-user';
  const jar = new Map<string, Map<string, string>>();
  let url = new URL(startUrl);
  let init: RequestInit = { method: 'GET' };
  for (let step = 0; step < 30; step++) {
    const cookies = jar.get(url.origin);
    const headers = new Headers(init.headers);
    if (cookies && cookies.size > 0) {
      headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    }
    const response = await fetch(url, { ...init, headers, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
    remember(jar, url.origin, response.headers.getSetCookie());
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      url = new URL(location, url);
      if (options.stopAt && url.href.startsWith(options.stopAt)) return { url: url.href, status: 0, body: '' };
      init = { method: 'GET' };
      continue;
    }
    const body = await response.text();
    const form = /<form method="post" action="([^"]+)">(.*?)<\/form>/s.exec(body);
    if (!form?.[1]) return { url: url.href, status: response.status, body };
    const fields = new URLSearchParams();
    for (const input of (form[2] ?? '').matchAll(/<input name="([^"]+)" value="([^"]*)">/g)) {
      fields.set(input[1] ?? '', input[1] === 'login' ? login : (input[2] ?? ''));
    }
    url = new URL(form[1], url);
    init = {
      method: 'POST',
      body: fields.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    };
  }
  throw new Error(`too many redirects from ${startUrl}`);
}

function remember(jar: Map<string, Map<string, string>>, origin: string, setCookies: string[]): void {
  let cookies = jar.get(origin);
  if (!cookies) jar.set(origin, (cookies = new Map()));
  for (const line of setCookies) {
    const [pair = '', ...attributes] = line.split(';');
    const index = pair.indexOf('=');
    const name = pair.slice(0, index).trim();
    const value = pair.slice(index + 1).trim();
    const expired = attributes.some((attribute) => {
      const [key = '', raw = ''] = attribute.split('=');
      const lower = key.trim().toLowerCase();
      return (lower === 'max-age' && Number(raw) <= 0) || (lower === 'expires' && Date.parse(raw) < Date.now());
    });
    if (expired || value === '') cookies.delete(name);
    else cookies.set(name, value);
  }
}
