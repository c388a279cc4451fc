/**
 * Pasted secrets the user chose to keep in config.json (no keychain): the
 * value must not cross to the renderer (the bridge redacts it, and a redacted
 * value saved would lose the secret), so the review shows a placeholder and
 * the host keeps the real entry until `backends.add` receives that same
 * reviewed entry back.
 */
import type { SnippetView } from '../../shared/model/snippetViews.js';

/** What a value kept on the host shows in the review. */
export const KEPT_ON_HOST = '(kept for config.json)';

/** The real entries of reviewed servers, by ID, with the masked form the renderer got. */
export class PastedPlainSecrets {
  private readonly kept = new Map<string, { masked: string; entry: Record<string, unknown> }>();

  /** `view` with each config-kept value replaced by {@link KEPT_ON_HOST}; the real entries are remembered. */
  mask(view: SnippetView): SnippetView {
    const servers = view.servers.map((server) => {
      const plain = server.secrets.filter((secret) => secret.place === 'config');
      if (plain.length === 0) return server;
      const entry: Record<string, unknown> = { ...server.entry };
      for (const secret of plain) {
        const [field, ...rest] = secret.field.split('.');
        const map = { ...(entry[field as string] as Record<string, unknown>) };
        map[rest.join('.')] = KEPT_ON_HOST;
        entry[field as string] = map;
      }
      this.kept.set(server.id, { masked: JSON.stringify(entry), entry: server.entry });
      return { ...server, entry };
    });
    return { ...view, servers };
  }

  /** The real entry when `entry` is the reviewed one of `id` (then forgotten); else `entry` itself. */
  resolve(id: string, entry: Record<string, unknown>): Record<string, unknown> {
    const kept = this.kept.get(id);
    if (!kept || kept.masked !== JSON.stringify(entry)) return entry;
    this.kept.delete(id);
    return kept.entry;
  }
}
