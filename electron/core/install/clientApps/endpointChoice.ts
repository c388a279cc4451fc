/**
 * Pointing a client at another endpoint than the merged `/mcp`: one server's
 * own (`install <client> --server ID`: `/servers/<id>/mcp`, with the client's
 * own token, so its profile's rules still apply) or one profile's view
 * (`--profile NAME`: `/profiles/<name>/mcp`, with that profile's token, the
 * only client token that endpoint takes). Both are checked against the
 * Switchboard config first, naming what exists when they are not there; a
 * client that launches `connect` speaks to the merged endpoint only, so it
 * is refused with the reason.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { endpointPath, type EndpointScope } from '../../../../shared/endpoint.js';
import { formatProblems, loadConfigFile } from '../../platform/config/load.js';
import { requireClient, type ClientsContext } from './install.js';
import type { ClientId } from './clientAppTypes.js';

/** Which endpoint a client entry points at (neither: the merged `/mcp`). */
export interface EndpointChoice {
  /** A configured server's id. */
  server?: string | undefined;
  /** A client profile's name (`policy.clients`). */
  profile?: string | undefined;
}

/** The names in a refusal: the first few, then how many more. */
function listed(names: string[]): string {
  if (names.length === 0) return 'none is configured';
  const shown = names.slice(0, 10).join(', ');
  return names.length > 10 ? `${shown} and ${names.length - 10} more` : shown;
}

/** The endpoint `choice` names, checked against the Switchboard config at `configPath`. */
export async function checkedScope(choice: EndpointChoice, configPath: string): Promise<EndpointScope> {
  if (choice.server === undefined && choice.profile === undefined) return { kind: 'merged' };
  if (choice.server !== undefined && choice.profile !== undefined) {
    throw new SwitchboardError(ErrorCode.InvalidParams, 'give --server or --profile, not both');
  }
  const loaded = await loadConfigFile(configPath, { allowMissing: true });
  if (!loaded.ok) {
    const problems = formatProblems(loaded.error.path, loaded.error.problems).join('; ');
    throw new SwitchboardError(ErrorCode.ConfigInvalid, `cannot check --server or --profile: ${problems}`);
  }
  const { config } = loaded.result;
  if (choice.server !== undefined) {
    const id = choice.server;
    const backend = config.backends.find((entry) => entry.id === id);
    if (!backend || !backend.enabled || config.policy.backends[id]?.enabled === false) {
      const enabled = config.backends.filter((entry) => entry.enabled).map((entry) => entry.id);
      const why = backend ? 'is disabled' : 'is not configured';
      throw new SwitchboardError(
        ErrorCode.UnknownBackend,
        `server "${id}" ${why}; enabled servers: ${listed(enabled)}`,
        {
          backend: id,
        },
      );
    }
    return { kind: 'server', id };
  }
  const name = choice.profile!;
  if (config.policy.clients[name] === undefined) {
    const names = Object.keys(config.policy.clients);
    throw new SwitchboardError(ErrorCode.UnknownClient, `no client profile "${name}"; profiles: ${listed(names)}`, {
      client: name,
    });
  }
  return { kind: 'profile', name };
}

/**
 * The context whose entries for client `id` point at `scope`: its URL, and
 * for a profile that profile's token. The merged endpoint leaves `ctx` as it is.
 */
export function contextFor(ctx: ClientsContext, id: string, scope: EndpointScope): ClientsContext {
  if (scope.kind === 'merged') return ctx;
  const definition = requireClient(id);
  if (definition.transport === 'stdio') {
    throw new SwitchboardError(
      ErrorCode.InvalidParams,
      `${definition.name} launches \`mcp-switchboard connect\`, which serves the merged endpoint only; ` +
        '--server and --profile work for clients that take a URL',
      { client: definition.id },
    );
  }
  const url = new URL(endpointPath(scope), ctx.url).toString();
  if (scope.kind === 'server') return { ...ctx, url };
  const tokens = { tokenFor: () => ctx.tokens.tokenFor(scope.name as ClientId) };
  return { ...ctx, url, tokens };
}
