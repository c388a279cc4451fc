/**
 * Builds the process's observability from the config's `observability`
 * section. Nothing configured: `NO_OBSERVABILITY`, and neither prom-client
 * nor the OpenTelemetry SDK is loaded (each part is a dynamic import, so the
 * bundle keeps them out of the start path).
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { ObservabilityConfig } from '../config/observabilityConfig.js';
import { resolveValues } from '../secrets/resolve.js';
import type { SecretStore } from '../secrets/secretStore.js';
import { ActiveObservability, type ObservabilityParts } from './activeObservability.js';
import type { JsonLog } from './jsonLog.js';
import { NO_OBSERVABILITY, type Observability } from './observability.js';

/** What opening takes besides the section. */
export interface ObservabilityOptions {
  /** For a `${VAR}` metrics token. */
  environment: NodeJS.ProcessEnv;
  /** For a `{"secret": NAME}` metrics token. */
  secrets: SecretStore | undefined;
  /** Switchboard's version (the traces' service.version). */
  version: string;
  /** The process's JSON log, when logs are JSON: it gets an access line per request. */
  jsonLog: JsonLog | undefined;
}

/** The observability in force, and the metrics token (the redaction must know it). */
export interface OpenedObservability {
  observability: Observability;
  metricsToken: string | undefined;
}

/**
 * Opens what the section turns on. Throws `config_invalid` naming
 * `observability.metrics.token` when its variable or secret is missing.
 */
export async function openObservability(
  config: ObservabilityConfig | undefined,
  options: ObservabilityOptions,
): Promise<OpenedObservability> {
  if (!config?.metrics && !config?.tracing && !options.jsonLog) {
    return { observability: NO_OBSERVABILITY, metricsToken: undefined };
  }
  const parts: ObservabilityParts = { accessLog: options.jsonLog };
  let metricsToken: string | undefined;
  if (config?.metrics) {
    const { token, unauthenticated } = config.metrics;
    if (token !== undefined) {
      const resolved = await resolveValues({ token }, options.environment, options.secrets, 'observability.metrics');
      metricsToken = resolved['token'];
      if (!metricsToken) {
        throw new SwitchboardError(ErrorCode.ConfigInvalid, 'observability.metrics.token: the token is empty', {
          field: 'observability.metrics.token',
        });
      }
    }
    const [{ Metrics }, { metricsRoute }] = await Promise.all([import('./metrics.js'), import('./metricsRoute.js')]);
    const metrics = new Metrics();
    parts.metrics = { metrics, route: metricsRoute(metrics, { token: metricsToken, unauthenticated }) };
  }
  if (config?.tracing) {
    const { Tracing } = await import('./tracing.js');
    parts.tracing = new Tracing(config.tracing, options.version);
  }
  return { observability: new ActiveObservability(parts), metricsToken };
}
