/**
 * "Copy config snippet": the entry for a client we do not write to, or for a
 * person who prefers to paste it, in that client's file syntax.
 */
import { TomlDocument } from './documents/tomlDocument.js';
import { entryFor, requireClient, targetPath, type ClientsContext, type ScopeOptions } from './install.js';
import type { ClientId } from './clientAppTypes.js';

/** A config snippet for a client we do not write to (or for a person who prefers to paste it). */
export interface Snippet {
  client: ClientId;
  /** Where it goes. */
  path: string;
  /** The text to paste: a JSON object holding the server map, or a TOML table. */
  text: string;
  entry: Record<string, unknown>;
}

/** The snippet for `id`, with the real token (the caller decides where it is shown). */
export async function clientSnippet(ctx: ClientsContext, id: string, scope: ScopeOptions = {}): Promise<Snippet> {
  const definition = requireClient(id);
  const path = targetPath(ctx, definition, scope);
  const { entry } = await entryFor(ctx, definition, scope);
  let text: string;
  if (definition.format === 'toml') {
    const document = TomlDocument.parse('').document!;
    document.setEntry(definition.container, definition.entryKey, entry);
    text = document.toString();
  } else {
    text = `${JSON.stringify({ [definition.container]: { [definition.entryKey]: entry } }, null, 2)}\n`;
  }
  return { client: definition.id, path, text, entry };
}
