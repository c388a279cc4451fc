/**
 * `credentials: "token-exchange"` (RFC 8693): a remote server that trusts the
 * gateway's own identity provider is reached as each signed-in person, with a
 * token the identity provider issues for that server in exchange for the
 * person's gateway access token (`subject_token`, kept by subjectTokens.ts).
 * The exchange is openid-client's `genericGrantRequest` at the discovered
 * token endpoint, authenticated as the configured confidential client. The
 * exchanged token is kept in memory per server and caller until shortly
 * before it expires, and sent only to that server, on that caller's own
 * connection; the gateway token itself never leaves for the upstream.
 * openid-client loads on the first exchange (laptop mode never loads it).
 */
import type { AuthProvider } from '@modelcontextprotocol/client';
import type * as Oidc from 'openid-client';
import type { GatewayConfig } from '../config/gatewayConfig.js';
import type { RemoteBackendConfig, TokenExchangeOptions } from '../config/schema.js';
import type { SecretStore } from '../secrets/secretStore.js';
import { resolveValues } from '../secrets/resolve.js';
import type { SubjectTokens } from './subjectTokens.js';
import { AuthorizationRequiredError } from './vaultProvider.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/** Options of {@link TokenExchange}. */
export interface TokenExchangeDeps {
  subjects: SubjectTokens;
  gateway(): GatewayConfig | undefined;
  secrets(): SecretStore | undefined;
  environment: NodeJS.ProcessEnv;
  /** One exchange's bound (discovery, then the token request). */
  timeoutMs?: number;
}

type ExchangeConfig = RemoteBackendConfig & { tokenExchange: TokenExchangeOptions };

interface Exchanged {
  token: string;
  /** Epoch ms after which it is exchanged again. */
  renewAt: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/;

/** Renew this long before expiry: a quarter of the lifetime, at most a minute. */
function renewAt(expiresInSeconds: number | undefined): number {
  const lifetime = (expiresInSeconds ?? 300) * 1000;
  return Date.now() + lifetime - Math.min(60_000, lifetime / 4);
}

/** Exchanged tokens of every token-exchange backend; see the module comment. */
export class TokenExchange {
  private readonly exchanged = new Map<string, Exchanged>();
  private readonly running = new Map<string, Promise<string>>();
  private readonly configurations = new Map<string, Promise<Oidc.Configuration>>();
  private readonly disposed = new AbortController();

  constructor(private readonly deps: TokenExchangeDeps) {}

  /** The bearer-token provider of one caller's connection (or the catalog's) to `config`. */
  transportAuth(config: ExchangeConfig, caller: string): AuthProvider {
    return {
      token: () => this.token(config, caller),
      // A refused exchanged token is exchanged again once (the SDK retries after this).
      onUnauthorized: async () => void this.exchanged.delete(this.key(config, caller)),
    };
  }

  /** Whether exchanges can happen here (gateway mode: signed-in people and their tokens). */
  available(): boolean {
    return this.deps.gateway() !== undefined;
  }

  /** The caller whose exchanged token lists a backend's catalog: the one seen most recently with a valid gateway token. */
  catalogCaller(): string | undefined {
    return this.deps.subjects.latestCaller();
  }

  /** Called when a person not seen (or whose token lapsed) presents a gateway token. */
  onNewCaller(listener: (caller: string) => void): () => void {
    return this.deps.subjects.onNewCaller(listener);
  }

  /** Forgets every exchanged token of a backend (removed or changed). */
  forgetBackend(backend: string): void {
    for (const key of this.exchanged.keys()) if (key.startsWith(`${backend}\n`)) this.exchanged.delete(key);
    this.configurations.delete(backend);
  }

  /** Stops exchanges in flight. */
  dispose(): void {
    this.disposed.abort(new Error('the core was stopped'));
    this.exchanged.clear();
  }

  private key(config: ExchangeConfig, caller: string): string {
    return `${config.id}\n${caller}`;
  }

  private async token(config: ExchangeConfig, caller: string): Promise<string> {
    const key = this.key(config, caller);
    const held = this.exchanged.get(key);
    if (held && held.renewAt > Date.now()) return held.token;
    let pending = this.running.get(key);
    if (!pending) {
      pending = this.exchange(config, caller).finally(() => this.running.delete(key));
      this.running.set(key, pending);
    }
    return pending;
  }

  private async exchange(config: ExchangeConfig, caller: string): Promise<string> {
    const subject = this.deps.subjects.current(caller);
    if (subject === undefined)
      throw new AuthorizationRequiredError(`no current gateway sign-in of ${caller} to exchange`);
    const oidc = await import('openid-client');
    const options = config.tokenExchange;
    const configuration = await this.configuration(config, oidc);
    const parameters: Record<string, string> = {
      subject_token: subject,
      subject_token_type: ACCESS_TOKEN_TYPE,
      requested_token_type: ACCESS_TOKEN_TYPE,
      resource: options.resource ?? config.url,
    };
    if (options.audience !== undefined) parameters['audience'] = options.audience;
    if (options.scope !== undefined) parameters['scope'] = options.scope;
    let answer: Awaited<ReturnType<typeof oidc.genericGrantRequest>>;
    try {
      answer = await oidc.genericGrantRequest(configuration, TOKEN_EXCHANGE_GRANT, parameters);
    } catch (error) {
      // The identity provider's refusal (invalid_grant, unauthorized_client...): never the tokens.
      const reason = error instanceof oidc.ResponseBodyError ? `${error.error}` : (error as Error).message;
      throw new AuthorizationRequiredError(`the identity provider refused the token exchange (${reason})`);
    }
    this.exchanged.set(this.key(config, caller), { token: answer.access_token, renewAt: renewAt(answer.expiresIn()) });
    return answer.access_token;
  }

  /** The identity provider as the exchanging client (discovered once per backend, a failure tried again). */
  private configuration(config: ExchangeConfig, oidc: typeof Oidc): Promise<Oidc.Configuration> {
    let found = this.configurations.get(config.id);
    if (!found) {
      found = this.discover(config, oidc);
      found.catch(() => this.configurations.delete(config.id));
      this.configurations.set(config.id, found);
    }
    return found;
  }

  private async discover(config: ExchangeConfig, oidc: typeof Oidc): Promise<Oidc.Configuration> {
    const options = config.tokenExchange;
    const issuer = options.issuer ?? this.deps.gateway()?.authorizationServers[0];
    if (issuer === undefined) throw new AuthorizationRequiredError('token exchange needs gateway mode');
    const { clientSecret } = await resolveValues(
      { clientSecret: options.clientSecret },
      this.deps.environment,
      this.deps.secrets(),
      `mcpServers.${config.id}.tokenExchange`,
    );
    const timeoutMs = this.deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const bounded = (url: string, init: object & { signal?: AbortSignal | null }): Promise<Response> => {
      const signals = [AbortSignal.timeout(timeoutMs), this.disposed.signal, ...(init.signal ? [init.signal] : [])];
      return fetch(url, { ...(init as RequestInit), signal: AbortSignal.any(signals) });
    };
    const discoverAs = (algorithm: 'oauth2' | 'oidc') =>
      oidc.discovery(new URL(issuer), options.clientId, undefined, oidc.ClientSecretBasic(clientSecret), {
        algorithm,
        timeout: Math.ceil(timeoutMs / 1000),
        [oidc.customFetch]: bounded,
        ...(LOOPBACK.test(issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
      });
    const configuration = await discoverAs('oauth2').catch(() => discoverAs('oidc'));
    configuration[oidc.customFetch] = bounded;
    return configuration;
  }
}
