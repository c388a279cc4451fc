/**
 * The kinds of catalog item a policy rule can name, and where the catalog
 * keeps each kind's items (exposed name or advertised URI -> origin). The one
 * place that maps a kind to its index, for decisions and for the policy view.
 */
import type { Catalog, ItemOrigin } from '../catalog.js';
import type { ItemKind } from '../../platform/config/policyConfig.js';

/** Every item kind, in the order the policy view lists them. */
export const ITEM_KINDS: readonly ItemKind[] = ['tools', 'prompts', 'resources', 'resourceTemplates', 'skills'];

/** Whether a value names an item kind. */
export function isItemKind(value: unknown): value is ItemKind {
  return typeof value === 'string' && (ITEM_KINDS as readonly string[]).includes(value);
}

/** The catalog's index of one kind: exposed name (tools, prompts) or URI (resources, templates, skills) -> origin. */
export function itemIndex(catalog: Catalog, kind: ItemKind): ReadonlyMap<string, ItemOrigin> {
  switch (kind) {
    case 'tools':
      return catalog.toolIndex;
    case 'prompts':
      return catalog.promptIndex;
    case 'resources':
      return catalog.resourceIndex;
    case 'resourceTemplates':
      return catalog.templateIndex;
    case 'skills':
      return catalog.skillIndex;
  }
}

/**
 * The kind whose rules decide an item found in `kind`'s index: a prompt or
 * resource offered as a tool keeps its own rule (rules are keyed by the
 * original item, never by how it is exposed).
 */
export function ruleKindOf(kind: ItemKind, origin: ItemOrigin): ItemKind {
  if (kind !== 'tools' || origin.via === undefined) return kind;
  return origin.via === 'prompt' ? 'prompts' : 'resources';
}
