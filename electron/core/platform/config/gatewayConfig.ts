/**
 * The `gateway` section of the config: when present, `/mcp` is an OAuth 2.1
 * protected resource (the MCP authorization spec, resource-server side)
 * instead of a loopback endpoint with Switchboard's own bearer tokens. It
 * names our public URL, the team's authorization servers and how their
 * access tokens are checked; who sees what is bound in `policy.principals`
 * and `policy.groups` (policyConfig.ts). Only the schema lives here: the
 * checks themselves load lazily, when the section is set
 * (frontend/http/gateway/).
 *
 * ```json
 * "gateway": {
 *   "resource": "https://mcp.example.com/mcp",
 *   "authorizationServers": ["https://login.example.com"],
 *   "scopesSupported": ["mcp", "tools:admin"],
 *   "defaultProfile": "everyone"
 * }
 * ```
 */
import { z } from 'zod';

/** The algorithms accepted by default: asymmetric only (no `none`, no HMAC with a shared secret). */
export const DEFAULT_ALGORITHMS = ['RS256', 'ES256', 'PS256', 'EdDSA'] as const;

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const claimName = z.string().min(1, 'must name a claim');
const secretValue = z.union([z.string().min(1), z.strictObject({ secret: z.string().min(1, 'must name a secret') })], {
  error: 'must be a string (may hold ${VAR}) or {"secret": "<name>"}',
});

/** Claims the principal is read from (RFC 9068 / OIDC names by default). */
const ClaimsSchema = z
  .strictObject({
    subject: claimName.default('sub'),
    email: claimName.default('email'),
    name: claimName.default('name'),
    groups: claimName.default('groups'),
  })
  .prefault({});

/** RFC 7662 token introspection, for opaque (non-JWT) access tokens. */
const IntrospectionSchema = z.strictObject({
  /** The authorization server (one of `authorizationServers`) whose discovered endpoint is used; default the first. */
  issuer: httpUrl.optional(),
  clientId: z.string().min(1, 'must not be empty'),
  clientSecret: secretValue,
  /** How long an answer is reused for the same token (never past its `exp`). */
  cacheMs: z.number().int().min(0).max(300_000).default(30_000),
});

/**
 * Signing in to the management UI (serve as an OpenID Connect relying party
 * of the team's identity provider): administrators get the management UI,
 * everyone else a self-service page (docs/gateway.md "The UI in gateway mode").
 */
const UiSchema = z.strictObject({
  /** The identity provider people sign in with (default: the first of `authorizationServers`). */
  issuer: httpUrl.optional(),
  clientId: z.string().min(1, 'must not be empty'),
  /** Absent: a public client (PKCE only). */
  clientSecret: secretValue.optional(),
  scopes: z.array(z.string().min(1)).default(['openid', 'email', 'profile']),
  /** People in any of these groups (the `groups` claim) are administrators. */
  adminGroups: z.array(z.string().min(1)).default([]),
  /** People whose subject or email is listed here are administrators. */
  adminPrincipals: z.array(z.string().min(1)).default([]),
  /** How long a UI session lasts. */
  sessionMs: z
    .number()
    .int()
    .min(60_000)
    .max(30 * 24 * 3_600_000)
    .default(8 * 3_600_000),
  /** Most UI sessions held at once (the oldest is ended past it). */
  maxSessions: z.number().int().min(1).max(100_000).default(1_000),
});

/** Serving TLS directly (without a reverse proxy in front). */
const TlsSchema = z.strictObject({
  cert: z.string().min(1, 'must be a file path'),
  key: z.string().min(1, 'must be a file path'),
});

/** The `gateway` section. */
export const GatewaySchema = z.strictObject({
  /** Our public URL of `/mcp`: the resource tokens must be meant for (RFC 8707, RFC 9728 `resource`). */
  resource: httpUrl.refine((url) => new URL(url).pathname === '/mcp', { error: 'must end in /mcp' }),
  /** Issuer URLs of the authorization servers whose tokens are accepted. */
  authorizationServers: z
    .array(
      httpUrl.refine((url) => url.startsWith('https:') || /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url), {
        error: 'must be an https URL (http only on loopback)',
      }),
    )
    .min(1, 'name at least one issuer'),
  /** Accepted `aud` values (default: the resource URL alone). */
  audiences: z.array(z.string().min(1)).min(1).optional(),
  algorithms: z
    .array(z.string().min(1))
    .min(1)
    .default([...DEFAULT_ALGORITHMS]),
  /** Tolerance for `exp`/`nbf`/`iat`, in seconds. */
  clockSkewSeconds: z.number().int().min(0).max(600).default(60),
  claims: ClaimsSchema,
  /** Scopes advertised in the Protected Resource Metadata (`scopes_supported`). */
  scopesSupported: z.array(z.string().min(1)).optional(),
  /** Scopes every token must carry to reach `/mcp` at all (default none). */
  requiredScopes: z.array(z.string().min(1)).default([]),
  introspection: IntrospectionSchema.optional(),
  /** Profile of a principal no `policy.principals` or `policy.groups` entry names (absent: nothing listed). */
  defaultProfile: z.string().min(1).optional(),
  /** Behind a reverse proxy: take the host from `X-Forwarded-Host` (see docs/gateway.md). */
  trustProxy: z.boolean().default(false),
  tls: TlsSchema.optional(),
  /** The JWKS cache: how long keys are kept, and the least time between two fetches (jose's defaults). */
  jwks: z
    .strictObject({
      cacheMaxAgeMs: z.number().int().positive().default(600_000),
      cooldownMs: z.number().int().min(0).default(30_000),
    })
    .prefault({}),
  /** Signing in to the UI: administrators and the self-service page (absent: the one-time login link only). */
  ui: UiSchema.optional(),
  /** How long one discovery, JWKS or introspection request may take. */
  fetchTimeoutMs: z.number().int().positive().default(5_000),
});

export type GatewayConfig = z.output<typeof GatewaySchema>;
/** The `gateway.ui` section. */
export type GatewayUiConfig = z.output<typeof UiSchema>;
