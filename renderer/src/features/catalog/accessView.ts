/**
 * The catalog as the chosen profile gets it, for the list and detail: each
 * entry's access by its catalog key, and the one-line cost of its tools/list
 * ("Cursor sees 40 tools, ~11k tokens; in search mode ~200").
 */
import type { CatalogAccessView, CatalogKind, ItemAccessView, PolicyKind } from '../../../../shared/model/views.js';
import { catalogKey } from '../../store/slices/catalogSlice.js';
import { approxTokens } from '../clients/ExposureCell.js';

const CATALOG_KIND: Record<PolicyKind, CatalogKind> = {
  tools: 'tool',
  prompts: 'prompt',
  resources: 'resource',
  resourceTemplates: 'resourceTemplate',
  skills: 'skill',
};

/** Each item's access, by the catalog key of its entry. */
export function accessByKey(view: CatalogAccessView | undefined): Map<string, ItemAccessView> {
  const byKey = new Map<string, ItemAccessView>();
  for (const item of view?.items ?? [])
    byKey.set(catalogKey({ kind: CATALOG_KIND[item.kind], exposed: item.exposed }), item);
  return byKey;
}

/** The profile's name as a sentence's subject: "Cursor", "The main token". */
export function subject(view: Pick<CatalogAccessView, 'name'>): string {
  return view.name.charAt(0).toUpperCase() + view.name.slice(1);
}

const tools = (n: number) => `${n} ${n === 1 ? 'tool' : 'tools'}`;

/** What the profile's tools/list holds and costs, in both modes. */
export function costLine(view: Pick<CatalogAccessView, 'name' | 'tools'>): string {
  const listing = view.tools;
  const who = subject(view);
  if (listing.inForce === 'search') {
    return `${who} is in search mode: ${tools(listing.listed)} listed, ${approxTokens(listing.tokens)} tokens, ${listing.reachable} found by search; listing all would take ${approxTokens(listing.allTokens)}`;
  }
  return `${who} sees ${tools(listing.allListed)}, ${approxTokens(listing.allTokens)} tokens; in search mode ${approxTokens(listing.searchTokens)}`;
}
