/**
 * The config file's schema. `mcpServers` takes Claude Desktop's format as-is
 * (command/args/env for stdio; url + type/transport + headers for remote), plus
 * our per-backend options. Parsing never throws: it returns problems that name
 * the field by its dotted path (`mcpServers.gh.url: must be an http(s) URL`),
 * so `check-config` can print one line per problem. Value maps (env, headers)
 * hold strings or keychain references; a remote backend whose server
 * Switchboard runs has a `launch`.
 */
import {
  REMOTE_SPELLINGS,
  REMOTE_TRANSPORTS,
  remoteTransportNamed,
  transportList,
  transportNamed,
  type RemoteTransportKind,
} from '../../../../shared/model/transports.js';
import { z } from 'zod';
import { BACKEND_ID_PATTERN } from '../../../../shared/ids.js';
import { PolicySchema, type Policy } from './policyConfig.js';
import { ProxyOptionsSchema, type ProxyOptions } from './proxyOptions.js';
import { ObservabilitySchema, observabilityFrom, type ObservabilityConfig } from './observabilityConfig.js';
import { ServerOverridesSchema, type ServerOverrides } from './overridesConfig.js';
import { GatewaySchema, type GatewayConfig } from './gatewayConfig.js';
import { ClusterSchema, type ClusterConfig } from './clusterConfig.js';
import type { ConfigValue } from '../secrets/secretStore.js';
import { principalReferenceProblems } from './principalId.js';

export { ExtraPathSchema, ProxyOptionsSchema, type ProxyOptions } from './proxyOptions.js';
export { BACKEND_ID_PATTERN } from '../../../../shared/ids.js';
/** What an exposed tool or prompt name may contain (Claude's and OpenAI's APIs). */
export const PREFIX_PATTERN = /^[A-Za-z0-9_-]*$/;

/** One problem found in a config, with the dotted path of the field. */
export interface ConfigProblem {
  path: string;
  message: string;
}

function pathOf(base: (string | number)[], issuePath: PropertyKey[]): string {
  return [...base, ...issuePath].map((part) => String(part)).join('.');
}

/** A zod error's issues as problems under `base`. */
function issuesToProblems(base: (string | number)[], error: z.ZodError): ConfigProblem[] {
  return error.issues
    .map((issue): ConfigProblem | ConfigProblem[] => {
      if (issue.code === 'unrecognized_keys') {
        // At the top level there is no field path to name: each key names itself (`extra: unknown key`).
        if (base.length === 0 && issue.path.length === 0)
          return issue.keys.map((key) => ({ path: key, message: 'unknown key' }));
        return { path: pathOf(base, issue.path), message: `unknown key(s): ${issue.keys.join(', ')}` };
      }
      return { path: pathOf(base, issue.path), message: issue.message };
    })
    .flat();
}

/** An env or header value: a string (may hold `${VAR}`) or `{"secret": NAME}` from the OS keychain. */
const valueMap = z.record(
  z.string(),
  z.union([z.string(), z.strictObject({ secret: z.string().min(1, 'must name a secret') })], {
    error: 'must be a string or {"secret": "<name>"}',
  }),
);

/**
 * The process that serves a remote backend's URL, when Switchboard runs it
 * (a registry package whose transport is streamable-http or sse): started
 * before connecting, stopped with the connection (backends/transport/launchedHttpTransport.ts).
 */
const LaunchSchema = z.strictObject({
  command: z.string().min(1, 'must not be empty'),
  args: z.array(z.string()).default([]),
  env: valueMap.default({}),
  cwd: z.string().min(1).optional(),
});

/** A validated `launch` of a remote backend. */
export type LaunchSpec = z.output<typeof LaunchSchema>;

const positiveInt = z.number().int().positive();

/** How the era is chosen when connecting to a backend. */
const ProtocolSchema = z.enum(['auto', 'legacy', '2026-07-28']);

/** Options every backend takes, whatever its transport. */
const commonOptions = {
  prefix: z.string().regex(PREFIX_PATTERN, 'may contain only letters, digits, _ and -').max(32).optional(),
  enabled: z.boolean().default(true),
  serialize: z.boolean().default(false),
  maxQueue: positiveInt.optional(),
  requestTimeoutMs: positiveInt.optional(),
  protocol: ProtocolSchema.optional(),
  description: z.string().optional(),
  /** `eager`: started at launch; `on-demand`: started by the first request once its catalog is cached. */
  start: z.enum(['eager', 'on-demand']).optional(),
  idleTimeoutMs: positiveInt.optional(),
  /** What the model sees of its tools: names, descriptions, annotations, arguments (platform/config/overridesConfig.ts). */
  overrides: ServerOverridesSchema.optional(),
  /** Where the entry came from, when added from an MCP registry (install/registry/addFromRegistry.ts). */
  source: z
    .strictObject({
      registry: z.string().min(1),
      name: z.string().min(1),
      version: z.string().min(1),
      /** The non-secret values the user gave, by input key, so an update can rebuild the entry. */
      inputs: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
    })
    .optional(),
};

/** Where a backend came from (a registry entry or a bundle file), as saved in its entry. */
export interface BackendSource {
  registry: string;
  name: string;
  version: string;
  inputs?: Record<string, string | string[]> | undefined;
}

/** A path a sandbox setting names: absolute, or under the home folder (`~/...`). */
const sandboxPath = z
  .string()
  .refine((path) => path.startsWith('/') || path === '~' || path.startsWith('~/'), {
    error: 'must be an absolute path or start with ~/',
  })
  .refine((path) => !path.split('/').includes('..'), { error: 'must not contain ..' });

/** A host a sandboxed server may connect to: a name (`api.github.com`), a wildcard (`*.github.com`), an address; optional `:port`. */
const sandboxHost = z
  .string()
  .regex(
    /^(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:]+\](:\d{1,5})?$/,
    'must be a host name, *.domain or address, with an optional :port',
  );

/**
 * What a sandboxed stdio server may do (backends/process/sandbox/): read and
 * write beyond its defaults (system files read-only, its package and cache
 * folders, a private home and temp folder), and reach the network: `none`,
 * `all`, or only the hosts listed. `true`/`false` turn the sandbox on with the
 * defaults, or off; an object turns it on unless `enabled: false`.
 */
const SandboxSchema = z.union([
  z.boolean(),
  z.strictObject({
    enabled: z.boolean().default(true),
    read: z.array(sandboxPath).default([]),
    write: z.array(sandboxPath).default([]),
    network: z.union([z.enum(['none', 'all']), z.array(sandboxHost)]).default('none'),
  }),
]);

/** Where a sandboxed server may connect. */
export type SandboxNetwork = 'none' | 'all' | string[];

/** A stdio server's own sandbox setting, normalized (absent in the file: the proxy's `defaultSandbox`). */
export interface SandboxSetting {
  enabled: boolean;
  read: string[];
  write: string[];
  network: SandboxNetwork;
}

function sandboxFrom(raw: z.output<typeof SandboxSchema> | undefined): SandboxSetting | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'boolean') return { enabled: raw, read: [], write: [], network: 'none' };
  return raw;
}

/** A stdio server's sandbox in force: its own setting, else the proxy's `defaultSandbox` with the defaults. */
export function sandboxOf(backend: StdioBackendConfig, proxy: ProxyOptions): SandboxSetting {
  return backend.sandbox ?? { enabled: proxy.defaultSandbox, read: [], write: [], network: 'none' };
}

/** How many processes run a stdio server: one for everyone, or one per signed-in person. */
export const INSTANCE_MODES = ['shared', 'per-principal'] as const;
export type InstanceMode = (typeof INSTANCE_MODES)[number];

const StdioBackendSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  transport: z.literal('stdio').optional(),
  command: z.string().min(1, 'must not be empty'),
  args: z.array(z.string()).default([]),
  env: valueMap.default({}),
  cwd: z.string().min(1).optional(),
  sandbox: SandboxSchema.optional(),
  /** `shared` (default): one process for everyone; `per-principal`: one per signed-in person (principalId.ts). */
  instances: z.enum(INSTANCE_MODES).optional(),
  ...commonOptions,
});

const remoteTransport = z.enum(REMOTE_SPELLINGS);

/**
 * Whose credentials reach a remote server: one for everyone, each caller's own
 * (signed in upstream), or each caller's gateway token exchanged (RFC 8693).
 */
export const CREDENTIAL_MODES = ['shared', 'per-caller', 'token-exchange'] as const;
export type CredentialMode = (typeof CREDENTIAL_MODES)[number];

/**
 * OAuth for a remote backend (MCP authorization spec). All optional: the
 * default is discovery plus dynamic client registration (RFC 7591).
 */
const OAuthSchema = z.strictObject({
  /** A client registered by hand with the authorization server. */
  clientId: z.string().min(1).optional(),
  /** Its secret, from the OS keychain (never a plain value in the file). */
  clientSecret: z.strictObject({ secret: z.string().min(1, 'must name a secret') }).optional(),
  /** Scope to ask for (space-separated); default: what the server advertises. */
  scope: z.string().min(1).optional(),
  /** A Client ID Metadata Document URL (https), used where the authorization server supports it. */
  clientMetadataUrl: z.url({ protocol: /^https$/, error: 'must be an https URL' }).optional(),
});

/** Validated `oauth` options of a remote backend. */
export type OAuthOptions = z.output<typeof OAuthSchema>;

/**
 * RFC 8693 token exchange at the gateway's identity provider (`credentials:
 * "token-exchange"`): the caller's gateway access token is traded for one
 * meant for this server (platform/auth/tokenExchange.ts).
 */
const TokenExchangeSchema = z.strictObject({
  /** The `resource` asked for (RFC 8707); default the server's `url`. */
  resource: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  /** The `audience` asked for (a logical name the identity provider knows), besides or instead of `resource`. */
  audience: z.string().min(1).optional(),
  /** Scope to ask for (space-separated); default: what the identity provider grants. */
  scope: z.string().min(1).optional(),
  /** The identity provider (one of `gateway.authorizationServers`); default the first. */
  issuer: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  /** The confidential client Switchboard exchanges as. */
  clientId: z.string().min(1, 'must not be empty'),
  clientSecret: z.union([z.string().min(1), z.strictObject({ secret: z.string().min(1, 'must name a secret') })], {
    error: 'must be a string (may hold ${VAR}) or {"secret": "<name>"}',
  }),
});

/** Validated `tokenExchange` options of a remote backend. */
export type TokenExchangeOptions = z.output<typeof TokenExchangeSchema>;

const RemoteBackendSchema = z.strictObject({
  type: remoteTransport.optional(),
  transport: remoteTransport.optional(),
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  headers: valueMap.default({}),
  oauth: OAuthSchema.optional(),
  /**
   * `shared` (default): one sign-in or header for everyone; `per-caller`: each
   * caller signs in upstream as themselves (platform/auth/callerCredentials.ts).
   */
  credentials: z.enum(CREDENTIAL_MODES).default('shared'),
  tokenExchange: TokenExchangeSchema.optional(),
  launch: LaunchSchema.optional(),
  ...commonOptions,
});

/**
 * The problems of a `credentials: "per-caller"` or `"token-exchange"` entry:
 * only Streamable HTTP, no Authorization header of its own, and
 * `tokenExchange` exactly with token exchange.
 */
function perCallerProblems(
  entry: RemoteEntry,
  transport: RemoteTransportKind,
  path: (string | number)[],
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const field = [...path, 'credentials'].join('.');
  const exchange = entry.credentials === 'token-exchange';
  if (exchange && !entry.tokenExchange)
    problems.push({ path: field, message: 'token exchange needs a "tokenExchange" section (clientId, clientSecret)' });
  if (!exchange && entry.tokenExchange)
    problems.push({
      path: [...path, 'tokenExchange'].join('.'),
      message: 'is used only with "credentials": "token-exchange"',
    });
  if (entry.credentials === 'shared') return problems;
  const mode = exchange ? 'token exchange' : 'per-caller credentials';
  if (transport !== 'http') {
    problems.push({ path: field, message: `${mode} need the Streamable HTTP transport ("http")` });
  }
  if (Object.keys(entry.headers).some((name) => name.toLowerCase() === 'authorization')) {
    problems.push({
      path: field,
      message: `${mode} cannot be combined with an Authorization header (that header is one shared credential)`,
    });
  }
  return problems;
}

/** The whole file. */
export const ConfigFileSchema = z.strictObject({
  $schema: z.string().optional(),
  version: z.literal(1).default(1),
  proxy: z.unknown().optional(),
  mcpServers: z.record(z.string(), z.unknown()).default({}),
  policy: z.unknown().optional(),
  /** MCP registries to search (install/registry/registryConfig.ts validates it). */
  registry: z.unknown().optional(),
  /** Metrics, traces and the log format (observabilityConfig.ts). */
  observability: z.unknown().optional(),
  /** Gateway mode: /mcp as an OAuth protected resource (platform/config/gatewayConfig.ts). */
  gateway: z.unknown().optional(),
  /** Replicas sharing one Redis (platform/config/clusterConfig.ts). */
  cluster: z.unknown().optional(),
});

export type ProtocolChoice = z.output<typeof ProtocolSchema>;
type StdioEntry = z.output<typeof StdioBackendSchema>;
type RemoteEntry = z.output<typeof RemoteBackendSchema>;

interface BackendBase {
  id: string;
  prefix: string;
  enabled: boolean;
  serialize: boolean;
  maxQueue: number | undefined;
  requestTimeoutMs: number | undefined;
  protocol: ProtocolChoice;
  description: string | undefined;
  /** Absent: the proxy's `defaultStart` for stdio, `eager` for remote servers (see startModeOf). */
  start: StartMode | undefined;
  idleTimeoutMs: number | undefined;
  /** Where it came from, when added from a registry or a bundle. */
  source: BackendSource | undefined;
  /** Its tool overrides (absent: none). */
  overrides?: ServerOverrides;
}

/** When a backend is started. */
export type StartMode = 'eager' | 'on-demand';

/** A backend's start mode in force: its own, else the proxy default for stdio, else eager. */
export function startModeOf(backend: BackendConfig, proxy: ProxyOptions): StartMode {
  return backend.start ?? (backend.transport === 'stdio' ? proxy.defaultStart : 'eager');
}

/** A validated stdio backend. `env` values may still hold `${VAR}` or secret references. */
export interface StdioBackendConfig extends BackendBase {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, ConfigValue>;
  cwd: string | undefined;
  /** Its own sandbox setting (absent: the proxy's `defaultSandbox`; see sandboxOf). */
  sandbox: SandboxSetting | undefined;
  /** Set only for `per-principal` (absent: shared, one process for everyone). */
  instances?: InstanceMode;
}

/** A validated remote backend (Streamable HTTP or legacy HTTP+SSE). */
export interface RemoteBackendConfig extends BackendBase {
  transport: RemoteTransportKind;
  url: string;
  /** May hold `${VAR}` or secret references. */
  headers: Record<string, ConfigValue>;
  /** OAuth options (absent: discovery and dynamic registration when the server asks for OAuth). */
  oauth: OAuthOptions | undefined;
  /** The process serving `url`, which Switchboard starts first (absent: the server runs elsewhere). */
  launch?: LaunchSpec;
  /** Set only for `per-caller` and `token-exchange` (absent: shared, one credential for everyone). */
  credentials?: CredentialMode;
  /** With `token-exchange`: what to exchange the caller's gateway token for, and as whom. */
  tokenExchange?: TokenExchangeOptions;
}

/** Whether each caller signs in to this backend's own authorization server (`per-caller`). */
export function isPerCaller(config: BackendConfig): config is RemoteBackendConfig {
  return config.transport !== 'stdio' && config.credentials === 'per-caller';
}

/** Whether each signed-in person gets their own process of this stdio server. */
export function isPerPrincipal(config: BackendConfig): config is StdioBackendConfig {
  return config.transport === 'stdio' && config.instances === 'per-principal';
}

/**
 * `instances: "per-principal"` on a remote entry: a remote server is no process of ours to start once
 * per person; per-caller credentials are its per-person form (`shared` is accepted: it is what it does).
 */
function remoteInstancesProblems(entry: Record<string, unknown>, path: (string | number)[]): ConfigProblem[] {
  if (entry['instances'] === undefined || entry['instances'] === 'shared') return [];
  const message =
    'instances: "per-principal" is for stdio servers (one process per person); a remote server gives each ' +
    'caller their own upstream connection with credentials: "per-caller"';
  return [{ path: [...path, 'instances'].join('.'), message }];
}

/** A stdio entry's `${principal.…}` references that are unknown, or name nobody (a shared server). */
function principalProblems(data: StdioEntry, path: (string | number)[]): ConfigProblem[] {
  return principalReferenceProblems(data, data.instances === 'per-principal').map(({ field, message }) => ({
    path: [...path, field].join('.'),
    message,
  }));
}

/** Whether each caller's gateway token is exchanged for this backend (`token-exchange`, RFC 8693). */
export function isTokenExchange(
  config: BackendConfig,
): config is RemoteBackendConfig & { tokenExchange: TokenExchangeOptions } {
  return config.transport !== 'stdio' && config.credentials === 'token-exchange' && config.tokenExchange !== undefined;
}

/** Whether each caller gets an upstream connection of their own (per-caller or token exchange). */
export function hasCallerConnections(config: BackendConfig): config is RemoteBackendConfig {
  return isPerCaller(config) || isTokenExchange(config);
}

export type BackendConfig = StdioBackendConfig | RemoteBackendConfig;

/** The validated config, in the order backends appear in the file. */
export interface SwitchboardConfig {
  version: 1;
  proxy: ProxyOptions;
  backends: BackendConfig[];
  /** Who sees and may use what (see platform/config/policyConfig.ts). */
  policy: Policy;
  /** Metrics, traces, log format (absent: all off; see platform/config/observabilityConfig.ts). Read at start. */
  observability?: ObservabilityConfig;
  /** Gateway mode, when configured (see platform/config/gatewayConfig.ts). */
  gateway?: GatewayConfig;
  /** Replicas sharing one Redis, when configured (see platform/config/clusterConfig.ts). Read at start. */
  cluster?: ClusterConfig;
}

function commonFrom(id: string, entry: StdioEntry | RemoteEntry): BackendBase {
  return {
    id,
    prefix: entry.prefix ?? id,
    enabled: entry.enabled,
    serialize: entry.serialize,
    maxQueue: entry.maxQueue,
    requestTimeoutMs: entry.requestTimeoutMs,
    // A stdio server's probe starts it twice, once per launch line (backends/connection/backendEras.ts).
    protocol: entry.protocol ?? 'auto',
    description: entry.description,
    start: entry.start,
    idleTimeoutMs: entry.idleTimeoutMs,
    source: entry.source,
    ...(entry.overrides ? { overrides: entry.overrides } : {}),
  };
}

/** Validates one `mcpServers` entry. */
export function parseBackend(
  id: string,
  raw: unknown,
  path: (string | number)[] = ['mcpServers', id],
): { backend?: BackendConfig; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  if (!BACKEND_ID_PATTERN.test(id)) {
    problems.push({
      path: path.join('.'),
      message: `invalid backend ID "${id}": use letters, digits, _ and -, starting with a letter`,
    });
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { problems: [...problems, { path: path.join('.'), message: 'must be an object' }] };
  }
  const entry = raw as Record<string, unknown>;
  const declared = entry['type'] ?? entry['transport'];
  const isRemote = 'url' in entry || (declared !== undefined && declared !== 'stdio');
  if (declared !== undefined && typeof declared === 'string' && transportNamed(declared) === undefined) {
    const field = entry['type'] !== undefined ? 'type' : 'transport';
    problems.push({
      path: [...path, field].join('.'),
      message: `unknown transport "${declared}" (expected ${transportList()})`,
    });
    return { problems };
  }
  if (!isRemote && !('command' in entry)) {
    problems.push({
      path: path.join('.'),
      message: `needs either "command" (stdio) or "url" (${REMOTE_TRANSPORTS.join('/')})`,
    });
    return { problems };
  }
  if (isRemote) {
    problems.push(...remoteInstancesProblems(entry, path));
    const { instances: _instances, ...remote } = entry;
    const parsed = RemoteBackendSchema.safeParse(remote);
    if (!parsed.success) return { problems: [...problems, ...issuesToProblems(path, parsed.error)] };
    const transport = remoteTransportNamed(parsed.data.type ?? parsed.data.transport);
    problems.push(...perCallerProblems(parsed.data, transport, path));
    if (problems.length > 0) return { problems };
    return {
      backend: {
        ...commonFrom(id, parsed.data),
        transport,
        url: parsed.data.url,
        headers: parsed.data.headers,
        oauth: parsed.data.oauth,
        ...(parsed.data.launch ? { launch: parsed.data.launch } : {}),
        ...(parsed.data.credentials !== 'shared' ? { credentials: parsed.data.credentials } : {}),
        ...(parsed.data.tokenExchange ? { tokenExchange: parsed.data.tokenExchange } : {}),
      },
      problems,
    };
  }
  const parsed = StdioBackendSchema.safeParse(entry);
  if (!parsed.success) return { problems: [...problems, ...issuesToProblems(path, parsed.error)] };
  problems.push(...principalProblems(parsed.data, path));
  if (problems.length > 0) return { problems };
  const data = parsed.data;
  return {
    backend: {
      ...commonFrom(id, data),
      transport: 'stdio',
      command: data.command,
      args: data.args,
      env: data.env,
      cwd: data.cwd,
      sandbox: sandboxFrom(data.sandbox),
      ...(data.instances === 'per-principal' ? { instances: 'per-principal' as const } : {}),
    },
    problems,
  };
}

/** Validates a parsed JSON document as a Switchboard config. */
export function parseConfig(raw: unknown): { config?: SwitchboardConfig; problems: ConfigProblem[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { problems: [{ path: '(root)', message: 'the config must be a JSON object' }] };
  }
  // Each section is checked on its own, so one run reports every problem.
  const top = ConfigFileSchema.safeParse(raw);
  if (!top.success) return { problems: issuesToProblems([], top.error) };
  const problems: ConfigProblem[] = [];
  const proxy = ProxyOptionsSchema.safeParse(top.data.proxy ?? {});
  if (!proxy.success) problems.push(...issuesToProblems(['proxy'], proxy.error));
  const policy = PolicySchema.safeParse(top.data.policy ?? {});
  if (!policy.success) problems.push(...issuesToProblems(['policy'], policy.error));
  const observability = ObservabilitySchema.safeParse(top.data.observability ?? {});
  if (!observability.success) problems.push(...issuesToProblems(['observability'], observability.error));
  const gateway = top.data.gateway === undefined ? undefined : GatewaySchema.safeParse(top.data.gateway);
  if (gateway && !gateway.success) problems.push(...issuesToProblems(['gateway'], gateway.error));
  if (gateway?.success && policy.success) problems.push(...gatewayPolicyProblems(gateway.data, policy.data));
  const cluster = top.data.cluster === undefined ? undefined : ClusterSchema.safeParse(top.data.cluster);
  if (cluster && !cluster.success) problems.push(...issuesToProblems(['cluster'], cluster.error));
  const backends: BackendConfig[] = [];
  for (const [id, entry] of Object.entries(top.data.mcpServers)) {
    const result = parseBackend(id, entry);
    problems.push(...result.problems);
    if (result.backend) backends.push(result.backend);
  }
  if (!gateway || gateway.success) problems.push(...tokenExchangeProblems(backends, gateway?.data));
  if (problems.length > 0 || !proxy.success || !policy.success || !observability.success) return { problems };
  if ((gateway && !gateway.success) || (cluster && !cluster.success)) return { problems };
  const config: SwitchboardConfig = {
    version: 1,
    proxy: proxy.data,
    backends,
    policy: policy.data,
    observability: observabilityFrom(observability.data),
  };
  if (gateway?.data) config.gateway = gateway.data;
  if (cluster?.data) config.cluster = cluster.data;
  return { config, problems };
}

/** Token exchange trades a signed-in person's gateway token: it needs gateway mode, and an issuer it accepts. */
function tokenExchangeProblems(backends: BackendConfig[], gateway: GatewayConfig | undefined): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const backend of backends) {
    if (!isTokenExchange(backend)) continue;
    if (!gateway) {
      problems.push({
        path: `mcpServers.${backend.id}.credentials`,
        message:
          'token exchange needs gateway mode (a "gateway" section): it exchanges the access token of the person ' +
          'signed in to the gateway, and without a gateway there is none',
      });
      continue;
    }
    const issuer = backend.tokenExchange.issuer;
    if (issuer !== undefined && !gateway.authorizationServers.includes(issuer))
      problems.push({
        path: `mcpServers.${backend.id}.tokenExchange.issuer`,
        message: 'must be one of gateway.authorizationServers',
      });
  }
  return problems;
}

/** What the gateway and the policy must agree on: profiles it names exist, the introspection issuer is listed. */
function gatewayPolicyProblems(gateway: GatewayConfig, policy: Policy): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const { defaultProfile, introspection } = gateway;
  if (defaultProfile !== undefined && policy.clients[defaultProfile] === undefined)
    problems.push({
      path: 'gateway.defaultProfile',
      message: `no client profile "${defaultProfile}" in policy.clients`,
    });
  if (introspection?.issuer !== undefined && !gateway.authorizationServers.includes(introspection.issuer))
    problems.push({ path: 'gateway.introspection.issuer', message: 'must be one of gateway.authorizationServers' });
  return problems;
}
