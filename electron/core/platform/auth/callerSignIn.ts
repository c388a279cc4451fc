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
 * bounded in number and time, and kept where the caller store says
 * (PendingSignIns: this process's memory, or the Redis replicas share, so the
 * link, the start and the callback may each reach another replica); a flow's
 * PKCE verifier is kept sealed under the operator's key.
 */
import { randomBytes } from 'node:crypto';
import { auth, type FetchLike, type OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { RemoteBackendConfig } from '../config/schema.js';
import type { SecretStore } from '../secrets/secretStore.js';
import { CallerProvider } from './callerProvider.js';
import type { PendingSignIns } from './callerRecords.js';
import type { CallerTokenStore } from './callerTokenStore.js';
import { staticClientOf } from './vaultProvider.js';

/** How long a sign-in link and a started flow stay valid. */
export const SIGN_IN_TTL_MS = 10 * 60_000;
/** At most this many links handed out are remembered for reuse (the oldest are forgotten first). */
const MAX_OFFERED = 1000;
/** A link is offered again only while it has at least this long to live. */
const REUSE_MARGIN_MS = 60_000;

/** What a pending link is bound to. */
interface Binding {
  backend: string;
  caller: string;
  /** Who the link was handed to (email, else subject), recorded with their tokens. */
  person?: string;
}

/** A flow sent to the authorization server, as kept (sealed) until its callback. */
interface FlowRecord extends Binding {
  redirectUrl: string;
  verifier: string;
}

/** The path of the callback on serve's port. */
export const CALLBACK_PATH = '/connections/callback';

/** What sign-ins need of their owner. */
export interface CallerSignInHost {
  store(): CallerTokenStore;
  /** Where links and flows in progress are kept. */
  pending: PendingSignIns;
  config(backend: string): RemoteBackendConfig | undefined;
  secrets(): SecretStore | undefined;
  discovery: Map<string, OAuthDiscoveryState>;
  fetchFn(): FetchLike;
}

const refused = (message: string): SwitchboardError => new SwitchboardError(ErrorCode.AuthorizationFailed, message);

/** Sign-in links, the flows they start, and their callbacks. */
export class CallerSignIn {
  private origin: string | undefined;
  /** The link last handed out per backend and caller, offered again while it lasts. */
  private readonly offered = new Map<string, { id: string; expiresAt: number }>();

  constructor(private readonly host: CallerSignInHost) {}

  /** serve's HTTP origin, once it listens (links point there). */
  served(origin: string): void {
    this.origin = origin;
  }

  /**
   * The link that signs `caller` in to `backend` (an unexpired, unused one is
   * reused); undefined before serve listens, or when the link cannot be kept
   * (replicas: Redis away).
   */
  async link(backend: string, caller: string, person?: string): Promise<string | undefined> {
    if (this.origin === undefined) return undefined;
    const key = `${backend}\n${caller}`;
    const found = this.offered.get(key);
    const { pending } = this.host;
    try {
      let id = found?.id;
      if (!found || found.expiresAt <= Date.now() + REUSE_MARGIN_MS || !(await pending.has('link', found.id))) {
        id = randomBytes(24).toString('base64url');
        await pending.put(
          'link',
          id,
          JSON.stringify({ backend, caller, ...(person ? { person } : {}) } satisfies Binding),
          SIGN_IN_TTL_MS,
        );
        this.offered.delete(key);
        this.offered.set(key, { id, expiresAt: Date.now() + SIGN_IN_TTL_MS });
        while (this.offered.size > MAX_OFFERED) this.offered.delete(this.offered.keys().next().value as string);
      }
      return `${this.origin}/connections/${encodeURIComponent(backend)}/start?link=${id}`;
    } catch {
      return undefined;
    }
  }

  /** Opens a link: resolves to the authorization server's URL to redirect to. */
  async start(backend: string, linkId: string): Promise<string> {
    const taken = await this.host.pending.take('link', linkId);
    const link = taken === undefined ? undefined : (JSON.parse(taken) as Binding);
    if (!link || link.backend !== backend || this.origin === undefined) {
      throw refused('this sign-in link is unknown, used or expired: ask for a new one by calling a tool again');
    }
    const config = this.host.config(backend);
    if (!config) throw refused(`there is no per-caller server "${backend}"`);
    const state = randomBytes(32).toString('base64url');
    const redirectUrl = `${this.origin}${CALLBACK_PATH}`;
    const provider = new CallerProvider({
      store: this.host.store(),
      config,
      caller: link.caller,
      mode: 'interactive',
      redirectUrl,
      state,
      staticClient: await staticClientOf(config, this.host.secrets()),
      discovery: this.host.discovery,
    });
    const options = { serverUrl: config.url, fetchFn: this.host.fetchFn(), forceReauthorization: true };
    await auth(provider, config.oauth?.scope ? { ...options, scope: config.oauth.scope } : options);
    const verifier = provider.savedVerifier;
    if (!provider.authorizationUrl || verifier === undefined) throw refused(`"${backend}" did not ask for a sign-in`);
    const flow: FlowRecord = { ...link, backend, redirectUrl, verifier };
    await this.host.pending.put('flow', state, await this.host.store().seal(flow), SIGN_IN_TTL_MS);
    return provider.authorizationUrl.href;
  }

  /** The authorization server came back: exchanges the code; resolves to whom it signed in where. */
  async callback(query: URLSearchParams): Promise<{ backend: string; caller: string }> {
    const state = query.get('state') ?? '';
    const sealed = state === '' ? undefined : await this.host.pending.take('flow', state);
    if (!sealed) throw refused('this sign-in does not belong to a flow in progress (unknown or expired state)');
    const flow = await this.host.store().open<FlowRecord>(sealed, 'a sign-in in progress');
    const error = query.get('error');
    if (error) throw refused(`the authorization server refused the sign-in: ${error}`);
    const code = query.get('code');
    const config = this.host.config(flow.backend);
    if (!code || !config) throw refused('the sign-in came back without a code');
    const provider = new CallerProvider({
      store: this.host.store(),
      config,
      caller: flow.caller,
      mode: 'interactive',
      redirectUrl: flow.redirectUrl,
      state,
      codeVerifier: flow.verifier,
      person: flow.person,
      staticClient: await staticClientOf(config, this.host.secrets()),
      discovery: this.host.discovery,
    });
    const iss = query.get('iss') ?? undefined;
    await auth(provider, {
      serverUrl: config.url,
      authorizationCode: code,
      ...(iss ? { iss } : {}),
      fetchFn: this.host.fetchFn(),
    });
    return { backend: flow.backend, caller: flow.caller };
  }
}
