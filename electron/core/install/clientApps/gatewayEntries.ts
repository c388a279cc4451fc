/**
 * Client entries when the Switchboard config is in gateway mode: a client
 * app connects to the gateway's public URL (`gateway.resource`) and signs the
 * person in with OAuth itself, as to any remote OAuth MCP server, so its
 * entry names that URL and carries no Switchboard bearer token (the gateway
 * accepts none). A client that can only launch `connect` (a stdio bridge
 * presenting a Switchboard token) cannot use a gateway, and is told so.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { loadConfigFile } from '../../platform/config/load.js';
import type { Launcher } from './clientAppTypes.js';
import type { ClientDefinition } from './definitions.js';

/** What of a clients context a gateway entry changes (install.ts ClientsContext). */
interface PointedContext {
  url: string;
  launcher: Launcher;
  tokens: { tokenFor(client: never): Promise<string> };
  gateway?: boolean;
}

/** The fields of an entry that carry a credential (a bearer header), in any client's syntax. */
const CREDENTIAL_FIELDS = ['headers', 'http_headers'] as const;

/** The gateway's public URL when the config at `configPath` is in gateway mode (an unreadable config: none). */
export async function gatewayResourceOf(configPath: string): Promise<string | undefined> {
  const loaded = await loadConfigFile(configPath, { allowMissing: true }).catch(() => undefined);
  return loaded?.ok ? loaded.result.config.gateway?.resource : undefined;
}

/** `ctx` pointing entries at the gateway at `resource`: no token is issued or written. */
export function gatewayContext<Context extends PointedContext>(ctx: Context, resource: string): Context {
  const noToken = () =>
    Promise.reject(new SwitchboardError(ErrorCode.InvalidParams, 'a gateway entry carries no Switchboard token'));
  return { ...ctx, url: resource, gateway: true, tokens: { tokenFor: noToken } };
}

/** The gateway entry of a client: its URL entry without a credential; refused for a client that launches `connect`. */
export function gatewayEntry(ctx: PointedContext, definition: ClientDefinition): Record<string, unknown> {
  if (definition.transport === 'stdio') {
    throw new SwitchboardError(
      ErrorCode.InvalidParams,
      `${definition.name} only launches commands, and this Switchboard is a gateway (${ctx.url}): its people ` +
        'sign in with OAuth, which `connect` cannot do; add the gateway URL as a remote (custom) connector in ' +
        `${definition.name} instead`,
      { client: definition.id },
    );
  }
  const entry = definition.buildEntry({ url: ctx.url, token: '', launcher: ctx.launcher, project: false });
  for (const field of CREDENTIAL_FIELDS) delete entry[field];
  return entry;
}
