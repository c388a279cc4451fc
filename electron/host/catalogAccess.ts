/**
 * The catalog as one client profile gets it: each item's state (allowed, ask,
 * denied, withheld, hidden by a server-wide switch, by the profile's server
 * list or by its tool cap), its token cost, and the cost of the profile's
 * tools/list in `all` and in `search` mode; plus `search_tools` run as that
 * profile (the same index and visibility as its real meta-tool).
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type {
  CatalogAccessView,
  FoundToolView,
  ItemAccessState,
  ItemAccessView,
  PolicyItemView,
} from '../../shared/model/views.js';
import { ALWAYS_LOAD_META, searchTools } from '../core/frontend/index.js';
import { toolListTokens, toolTokens } from '../core/catalog/index.js';
import { LOCAL_CLIENT } from '../core/platform/index.js';
import type { Switchboard } from '../core/api/index.js';

/** The client ID a contract `profile` names (`*` or absent: the main token); unknown profiles are refused. */
export function clientOf(core: Switchboard, profile: string | undefined): string {
  if (profile === undefined || profile === '*' || profile === LOCAL_CLIENT) return LOCAL_CLIENT;
  if (typeof profile !== 'string' || !core.policy.current.clients[profile]) {
    throw new SwitchboardError(ErrorCode.UnknownClient, `no client profile "${String(profile)}"`, { client: profile });
  }
  return profile;
}

/** How the UI names a client: its profile's name, or "the main token". */
export function clientName(core: Switchboard, client: string): string {
  return client === LOCAL_CLIENT ? 'the main token' : (core.policy.current.clients[client]?.name ?? client);
}

/** Each item's rule for `client` with its layers (the Authorization screen's rows). */
export function policyItems(core: Switchboard, client: string): PolicyItemView[] {
  return core.policy.authorizationView(client).items;
}

/** Why a client does not get an item it may be allowed, or what it gets. */
function stateOf(core: Switchboard, client: string, item: PolicyItemView, inView: boolean): ItemAccessState {
  const policy = core.policy.current;
  if (policy.backends[item.backendId]?.enabled === false) return 'server-off';
  const profile = client === LOCAL_CLIENT ? undefined : policy.clients[client];
  if (profile?.backends && !profile.backends.includes(item.backendId)) return 'server-hidden';
  if (item.rule === 'deny') return 'denied';
  if (item.withheld) return 'withheld';
  if (!inView) return 'over-cap';
  return item.rule === 'ask' ? 'ask' : 'allowed';
}

/** The catalog as `profile` gets it. */
export function catalogAccess(core: Switchboard, profile: string | undefined): CatalogAccessView {
  const client = clientOf(core, profile);
  const catalog = core.catalog();
  const view = core.policy.view(client, catalog);
  const listed = core.exposure.list(client);
  const listedNames = new Set(listed.map((tool) => tool.name));
  // Catalog name -> the tool as this client receives it (shortened where its name budget says so).
  const asClient = new Map(view.tools.map((tool) => [view.aliases.get(tool.name) ?? tool.name, tool]));
  const promptNames = new Map(
    view.prompts.map((prompt) => [view.aliases.get(prompt.name) ?? prompt.name, prompt.name]),
  );
  const items: ItemAccessView[] = policyItems(core, client).map((item) => {
    const tool = item.kind === 'tools' ? asClient.get(item.exposed) : undefined;
    const inView = item.kind === 'tools' ? tool !== undefined : view.allowed[item.kind].has(item.exposed);
    const shown = tool?.name ?? (item.kind === 'prompts' ? promptNames.get(item.exposed) : undefined);
    const definition = tool ?? (item.kind === 'tools' ? catalog.toolByName.get(item.exposed) : undefined);
    return {
      ...item,
      state: stateOf(core, client, item, inView),
      ...(shown !== undefined && shown !== item.exposed ? { clientName: shown } : {}),
      listed: item.kind === 'tools' ? tool !== undefined && listedNames.has(tool.name) : inView,
      ...(definition ? { tokens: toolTokens(definition) } : {}),
    };
  });
  const cap = client === LOCAL_CLIENT ? undefined : core.policy.current.clients[client]?.maxTools;
  // In search mode the view holds every tool search reaches; listed in full, the cap would apply.
  const all = view.exposure === 'search' && cap !== undefined ? view.tools.slice(0, cap) : view.tools;
  const exposure =
    client === LOCAL_CLIENT ? core.policy.current.exposure : core.policy.current.clients[client]?.exposure;
  return {
    profile: profile === undefined || profile === LOCAL_CLIENT ? '*' : profile,
    name: clientName(core, client),
    tools: {
      ...(exposure !== undefined ? { exposure } : {}),
      inForce: view.exposure,
      listed: listed.length,
      tokens: toolListTokens(listed),
      reachable: core.exposure.reachable(client),
      allListed: all.length,
      allTokens: toolListTokens(all),
      // Listed in full, the tools pinned to always show carry the always-load mark; search mode lists them too.
      searchTokens: toolListTokens(
        view.exposure === 'search'
          ? listed
          : [...core.exposure.metaToolsFor(client), ...listed.filter((tool) => tool._meta?.[ALWAYS_LOAD_META])],
      ),
    },
    items,
  };
}

/** `search_tools` as `profile` would run it: the same results, in the same order. */
export function searchAs(
  core: Switchboard,
  profile: string | undefined,
  query: unknown,
  limit: unknown,
): FoundToolView[] {
  const client = clientOf(core, profile);
  try {
    const args = { query, detail: 'full', ...(limit !== undefined ? { limit } : {}) };
    const result = searchTools(core.exposure, client, args);
    return (result.structuredContent as { tools: FoundToolView[] }).tools;
  } catch (error) {
    if (error instanceof ProtocolError) throw new SwitchboardError(ErrorCode.InvalidParams, error.message);
    throw error;
  }
}
