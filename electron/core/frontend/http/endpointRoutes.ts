/**
 * Which MCP route a request's path and token lead to. `/mcp` is the merged
 * endpoint as the token's profile sees it; `/profiles/<name>/mcp` is the
 * merged endpoint as profile <name> sees it, for clients that cannot pick
 * their profile by token (the main token may use any profile, a client's
 * token only its own); `/servers/<id>/mcp` is one configured, enabled
 * server's own endpoint (server/serverScopedCore.ts), made on first use and
 * closed, with its sessions, when the server is removed or disabled. Every
 * refusal is data: an HTTP status and a JSON-RPC error that names what was
 * asked for.
 */
import type { EndpointScope } from '../../../../shared/endpoint.js';
import type { FrontendCore } from '../../api/services.js';
import { LOCAL_CLIENT } from '../../platform/config/policyConfig.js';
import { serverInstructions } from '../server/mcpServer.js';
import { serverScopedCore } from '../server/serverScopedCore.js';
import { McpRoute } from './mcpRoute.js';
import type { Observability } from '../../platform/observability/observability.js';
import type { Drain } from './drain.js';

/** A request refused before it reaches a route. */
export interface RouteRefusal {
  status: number;
  message: string;
}

/** The route that serves a request, and the profile it is served as. */
export interface PickedRoute {
  route: McpRoute;
  client: string;
}

/** The MCP routes of one HTTP endpoint. */
export class EndpointRoutes {
  /** `/mcp` and every `/profiles/<name>/mcp`. */
  readonly merged: McpRoute;
  private readonly servers = new Map<string, McpRoute>();
  private readonly unsubscribe: (() => void)[];

  constructor(
    private readonly core: FrontendCore,
    private readonly listenStallMs: number | undefined,
    private readonly observability?: Observability,
    /** The endpoint's drain: routes refuse new sessions while it runs. */
    private readonly drain?: Drain,
  ) {
    this.merged = new McpRoute(core, { listenStallMs, label: 'http-2026', observability, drain });
    const prune = (): void => this.prune();
    this.unsubscribe = [core.events.on('configApplied', prune), core.events.on('catalogChanged', prune)];
  }

  /** The route for `scope` as `client` (the token's profile) may use it, or why not. */
  pick(scope: EndpointScope, client: string): PickedRoute | RouteRefusal {
    if (scope.kind === 'merged') return { route: this.merged, client };
    if (scope.kind === 'profile') return this.profile(scope.name, client);
    if (!this.serves(scope.id)) {
      return {
        status: 404,
        message: `Not Found: no server "${scope.id}" is configured and enabled; /servers/<id>/mcp takes the id of one`,
      };
    }
    let route = this.servers.get(scope.id);
    if (!route) {
      route = new McpRoute(serverScopedCore(this.core, scope.id), {
        listenStallMs: this.listenStallMs,
        label: `http-2026:${scope.id}`,
        instructions: serverInstructions(scope.id),
        observability: this.observability,
        drain: this.drain,
      });
      this.servers.set(scope.id, route);
    }
    return { route, client };
  }

  /** The merged route as profile `name`, if the token's profile `client` may use it. */
  private profile(name: string, client: string): PickedRoute | RouteRefusal {
    if (name !== LOCAL_CLIENT && this.core.policy.current.clients[name] === undefined) {
      return { status: 404, message: `Not Found: there is no client profile "${name}"` };
    }
    if (client !== LOCAL_CLIENT && client !== name) {
      return {
        status: 403,
        message:
          `Forbidden: this token belongs to client profile "${client}" and may use /profiles/${encodeURIComponent(client)}/mcp ` +
          `(or /mcp), not profile "${name}"; use that profile's token or the main token`,
      };
    }
    return { route: this.merged, client: name };
  }

  /** Whether `id` is a configured server that is enabled (in its entry and in the policy). */
  private serves(id: string): boolean {
    const backend = this.core.backends.backendConfigs().find((config) => config.id === id);
    return backend !== undefined && backend.enabled && this.core.policy.current.backends[id]?.enabled !== false;
  }

  /** Every route now. */
  all(): McpRoute[] {
    return [this.merged, ...this.servers.values()];
  }

  /** Closes the routes of servers removed or disabled since (their sessions end; a new request gets 404). */
  private prune(): void {
    for (const [id, route] of this.servers) {
      if (this.serves(id)) continue;
      this.servers.delete(id);
      void route.close();
    }
  }

  /** Closes every route. */
  async close(): Promise<void> {
    for (const stop of this.unsubscribe) stop();
    const routes = this.all();
    this.servers.clear();
    await Promise.allSettled(routes.map((route) => route.close()));
  }
}
