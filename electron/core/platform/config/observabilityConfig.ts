/**
 * The `observability` section of the config: Prometheus metrics on `/metrics`,
 * OpenTelemetry traces exported over OTLP, and the log format. Everything is
 * off unless the section turns it on, so a laptop pays nothing for it
 * (platform/observability/ loads prom-client and the OpenTelemetry SDK only
 * when asked). Parsing never throws: problems name the field by dotted path.
 */
import { z } from 'zod';
import type { ConfigValue } from '../secrets/secretStore.js';

/** A reference to a token: `{"secret": NAME}` (the keychain) or a string naming `${VAR}`; never the token itself. */
const TokenReference = z.union(
  [
    z
      .string()
      .regex(
        /\$\{[A-Za-z_][A-Za-z0-9_]*\}/,
        'must be a ${VAR} reference or {"secret": "<name>"}: a token never sits in the config file',
      ),
    z.strictObject({ secret: z.string().min(1, 'must name a secret') }),
  ],
  { error: 'must be a ${VAR} reference or {"secret": "<name>"}' },
);

const MetricsSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    /** A token for scrapers only (the main token works too). */
    token: TokenReference.optional(),
    /** Serve `/metrics` to anyone who reaches the port, without a token. Only when said explicitly. */
    unauthenticated: z.boolean().default(false),
  })
  .refine((metrics) => !(metrics.unauthenticated && metrics.token !== undefined), {
    error: 'token and unauthenticated: true exclude each other',
    path: ['unauthenticated'],
  });

const TracingSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /**
   * The OTLP/HTTP base URL (`/v1/traces` is appended, as for OTEL_EXPORTER_OTLP_ENDPOINT);
   * absent: the OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT variables, else http://localhost:4318.
   */
  endpoint: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  serviceName: z.string().min(1, 'must not be empty').default('mcp-switchboard'),
  /** Share of new traces recorded (a client's sampled parent is always followed). */
  sampleRatio: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').default(1),
});

/** The `observability` section with its defaults (all off). */
export const ObservabilitySchema = z
  .strictObject({
    metrics: MetricsSchema.optional(),
    tracing: TracingSchema.optional(),
    /** `json`: one JSON object per log line, with the request id (`serve --log-format json` says the same). */
    logFormat: z.enum(['text', 'json']).default('text'),
  })
  .prefault({});

/** How log lines are written. */
export type LogFormat = 'text' | 'json';

/** Metrics in force (absent or `enabled: false` in the file: no metrics). */
export interface MetricsSettings {
  token: ConfigValue | undefined;
  unauthenticated: boolean;
}

/** Tracing in force (absent or `enabled: false`: no tracing). */
export interface TracingSettings {
  endpoint: string | undefined;
  serviceName: string;
  sampleRatio: number;
}

/** The validated section: each part present only when it is on. */
export interface ObservabilityConfig {
  metrics: MetricsSettings | undefined;
  tracing: TracingSettings | undefined;
  logFormat: LogFormat;
}

/** Nothing observed: the laptop default. */
export const OBSERVABILITY_OFF: ObservabilityConfig = { metrics: undefined, tracing: undefined, logFormat: 'text' };

/** The parsed section, with the parts turned off left out. */
export function observabilityFrom(raw: z.output<typeof ObservabilitySchema>): ObservabilityConfig {
  const { metrics, tracing } = raw;
  return {
    metrics: metrics?.enabled === true ? { token: metrics.token, unauthenticated: metrics.unauthenticated } : undefined,
    tracing:
      tracing?.enabled === true
        ? { endpoint: tracing.endpoint, serviceName: tracing.serviceName, sampleRatio: tracing.sampleRatio }
        : undefined,
    logFormat: raw.logFormat,
  };
}
