/**
 * A caller's sign-in to a per-caller backend, through serve's own HTTP port.
 * The link a caller gets (`/connections/<backend>/start?link=<id>`) names a
 * one-time, short-lived, unguessable id bound to the backend and the caller
 * key; opening it runs the SDK's `auth()` (RFC 9728 / RFC 8414 discovery,
 * RFC 7591 registration, PKCE per RFC 7636, resource indicators per RFC 8707)
 * and redirects to the authorization server. The server comes back to
 * `/connections/callback` with the flow's `state` (RFC 6749 §10.12: checked
 * here, the SDK does not), and the code is exchanged for the caller's tokens,
 * which the provider saves in the encrypted caller store. Links and flows are
 * bounded in number and time.
 */
import { randomBytes } from 'node:crypto';
import { auth, type FetchLike, type OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { RemoteBackendConfig } from '../config/schema.js';
import type { SecretStore } from '../secrets/secretStore.js';
import { CallerProvider } from './callerProvider.js';
import type { CallerTokenStore } from './callerTokenStore.js';
import { staticClientOf } from './vaultProvider.js';

/** How long a sign-in link and a started flow stay valid. */
export const SIGN_IN_TTL_MS = 10 * 60_000;
/** At most this many links and flows are pending (the oldest are dropped first). */
const MAX_PENDING = 1000;

/** What a pending link or flow is bound to. */
interface Binding {
  backend: string;
  caller: string;
  expiresAt: number;
}

/** The path of the callback on serve's port. */
export const CALLBACK_PATH = '/connections/callback';

/** What sign-ins need of their owner. */
export interface CallerSignInHost {
  store(): CallerTokenStore;
  config(backend: string): RemoteBackendConfig | undefined;
  secrets(): SecretStore | undefined;
  discovery: Map<string, OAuthDiscoveryState>;
  fetchFn(): FetchLike;
}

/** A bounded map of pending entries that expire. */
class Pending<T extends Binding> {
  private readonly entries = new Map<string, T>();

  add(id: string, entry: T): void {
    this.entries.set(id, entry);
    while (this.entries.size > MAX_PENDING) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Takes an entry once; an expired one is gone. */
  take(id: string): T | undefined {
    const entry = this.entries.get(id);
    this.entries.delete(id);
    return entry && entry.expiresAt > Date.now() ? entry : undefined;
  }

  /** An unexpired entry bound to the backend and caller, left in place. */
  find(backend: string, caller: string): [string, T] | undefined {
    for (const [id, entry] of this.entries) {
      if (entry.backend === backend && entry.caller === caller && entry.expiresAt > Date.now() + 60_000) {
        return [id, entry];
      }
    }
    return undefined;
  }
}

const refused = (message: string): SwitchboardError => new SwitchboardError(ErrorCode.AuthorizationFailed, message);

/** Sign-in links, the flows they start, and their callbacks. */
export class CallerSignIn {
  private origin: string | undefined;
  private readonly links = new Pending<Binding>();
  private readonly flows = new Pending<Binding & { provider: CallerProvider }>();

  constructor(private readonly host: CallerSignInHost) {}

  /** serve's HTTP origin, once it listens (links point there). */
  served(origin: string): void {
    this.origin = origin;
  }

  /** The link that signs `caller` in to `backend` (an unexpired one is reused); undefined before serve listens. */
  link(backend: string, caller: string): string | undefined {
    if (this.origin === undefined) return undefined;
    const found = this.links.find(backend, caller);
    const id = found?.[0] ?? randomBytes(24).toString('base64url');
    if (!found) this.links.add(id, { backend, caller, expiresAt: Date.now() + SIGN_IN_TTL_MS });
    return `${this.origin}/connections/${encodeURIComponent(backend)}/start?link=${id}`;
  }

  /** Opens a link: resolves to the authorization server's URL to redirect to. */
  async start(backend: string, linkId: string): Promise<string> {
    const link = this.links.take(linkId);
    if (!link || link.backend !== backend || this.origin === undefined) {
      throw refused('this sign-in link is unknown, used or expired: ask for a new one by calling a tool again');
    }
    const config = this.host.config(backend);
    if (!config) throw refused(`there is no per-caller server "${backend}"`);
    const state = randomBytes(32).toString('base64url');
    const provider = new CallerProvider({
      store: this.host.store(),
      config,
      caller: link.caller,
      mode: 'interactive',
      redirectUrl: `${this.origin}${CALLBACK_PATH}`,
      state,
      staticClient: await staticClientOf(config, this.host.secrets()),
      discovery: this.host.discovery,
    });
    const options = { serverUrl: config.url, fetchFn: this.host.fetchFn(), forceReauthorization: true };
    await auth(provider, config.oauth?.scope ? { ...options, scope: config.oauth.scope } : options);
    if (!provider.authorizationUrl) throw refused(`"${backend}" did not ask for a sign-in`);
    this.flows.add(state, { ...link, expiresAt: Date.now() + SIGN_IN_TTL_MS, provider });
    return provider.authorizationUrl.href;
  }

  /** The authorization server came back: exchanges the code; resolves to whom it signed in where. */
  async callback(query: URLSearchParams): Promise<{ backend: string; caller: string }> {
    const flow = this.flows.take(query.get('state') ?? '');
    if (!flow) throw refused('this sign-in does not belong to a flow in progress (unknown or expired state)');
    const error = query.get('error');
    if (error) throw refused(`the authorization server refused the sign-in: ${error}`);
    const code = query.get('code');
    const config = this.host.config(flow.backend);
    if (!code || !config) throw refused('the sign-in came back without a code');
    const iss = query.get('iss') ?? undefined;
    await auth(flow.provider, {
      serverUrl: config.url,
      authorizationCode: code,
      ...(iss ? { iss } : {}),
      fetchFn: this.host.fetchFn(),
    });
    return { backend: flow.backend, caller: flow.caller };
  }
}
