/**
 * The core's overrides service: one item's override at one level (a
 * server's, or a profile's laid over it) with the definition the model would
 * see and its token cost, and saving one through the config owner. A fixed
 * value or default the tool's input schema refuses is refused before anything
 * is written, naming the field. What was saved is applied at once as a hand
 * edit of the file would be (a server's overrides rebuild the catalog without
 * restarting it; a profile's change only that profile's view).
 */
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';
import type { OverrideView, ToolDefinitionView } from '../../../shared/model/overrides.js';
import type { BackendCatalog } from '../backends/connection/backendConnection.js';
import { withOrigin } from '../catalog/catalog.js';
import { exposedName } from '../catalog/naming.js';
import { mergeOverrides } from '../catalog/overrides/mergeOverrides.js';
import {
  overrideIn,
  overrideProblems,
  refuseProblems,
  sourceIn,
  writeOverride,
  type OverrideTarget,
} from '../catalog/overrides/overrideEdit.js';
import { exposedTool, type AnyToolOverride, type ToolSource } from '../catalog/overrides/toolSource.js';
import { toolTokens } from '../catalog/toolTokens.js';
import type { ConfigStore, StoredConfig } from '../platform/config/configStore.js';
import type { SwitchboardConfig } from '../platform/config/schema.js';
import type { Policy } from '../platform/config/policyConfig.js';

/** What the service reads of the core. */
export interface CoreOverridesHost {
  config(): SwitchboardConfig;
  policy(): Policy;
  snapshotOf(backendId: string): BackendCatalog | undefined;
  store(): ConfigStore | undefined;
  /** Applies the file as written (as the watcher would, at once). */
  apply(stored: StoredConfig): Promise<void>;
}

/** Overrides as the host and the UI use them (api/services.ts OverridesService). */
export class CoreOverrides {
  constructor(private readonly host: CoreOverridesHost) {}

  /** One item's override at `target`'s level, what it inherits, and the preview with `draft` (`undefined`: as saved; `null`: none). */
  view(target: OverrideTarget, draft?: unknown): OverrideView {
    const source = sourceIn(this.host.snapshotOf(target.backendId), target);
    const own = this.own(target);
    const inherited = target.profile === undefined ? undefined : this.serverOverride(target);
    const problems = draft === undefined || draft === null ? [] : overrideProblems(target, draft, source);
    const view: OverrideView = { problems };
    if (own) view.override = own;
    if (inherited) view.inherited = inherited;
    if (!source) return view;
    view.upstream = definitionView(exposedTool(source, undefined, sourceName(source)));
    const level =
      draft === undefined ? own : problems.length > 0 ? own : ((draft as AnyToolOverride | null) ?? undefined);
    const tool = exposedTool(
      source,
      mergeOverrides(inherited, level),
      this.exposedNameOf(target, source, inherited, level),
    );
    view.preview = definitionView(tool);
    // Counted as clients receive it (its origin in `_meta`), so it is the Catalog's figure for the same tool.
    const via =
      target.section === 'promptsAsTools' ? 'prompt' : target.section === 'resourcesAsTools' ? 'resource' : undefined;
    view.tokens = toolTokens(
      withOrigin(tool, { backendId: target.backendId, original: target.original, ...(via ? { via } : {}) }),
    );
    return view;
  }

  /** Saves (`null`: removes) one override through the config owner; refused, naming each field, when it is wrong. */
  async set(target: OverrideTarget, override: AnyToolOverride | null): Promise<void> {
    const store = this.host.store();
    if (!store) throw new SwitchboardError(ErrorCode.ConfigInvalid, 'overrides need a config file; this core has none');
    if (override !== null) {
      refuseProblems(overrideProblems(target, override, sourceIn(this.host.snapshotOf(target.backendId), target)));
    }
    await store.change((document) => writeOverride(document, target, override ?? undefined));
    await this.host.apply(await store.read());
  }

  private own(target: OverrideTarget): AnyToolOverride | undefined {
    if (target.profile === undefined) return this.serverOverride(target);
    return overrideIn(this.host.policy().clients[target.profile]?.overrides?.[target.backendId], target);
  }

  private serverOverride(target: OverrideTarget): AnyToolOverride | undefined {
    const backend = this.host.config().backends.find((item) => item.id === target.backendId);
    return overrideIn(backend?.overrides, target);
  }

  private exposedNameOf(
    target: OverrideTarget,
    source: ToolSource,
    inherited: AnyToolOverride | undefined,
    level: AnyToolOverride | undefined,
  ): string {
    const config = this.host.config();
    const prefix = config.backends.find((item) => item.id === target.backendId)?.prefix ?? target.backendId;
    const name = level?.name ?? inherited?.name ?? sourceName(source);
    return exposedName(target.backendId, prefix, config.proxy.separator, name);
  }
}

/** The name an item is exposed under without an override (a resource: its name, not its URI). */
function sourceName(source: ToolSource): string {
  if (source.via === 'tool') return source.tool.name;
  return source.via === 'prompt' ? source.prompt.name : source.resource.name;
}

function definitionView(tool: ReturnType<typeof exposedTool>): ToolDefinitionView {
  const view: ToolDefinitionView = { name: tool.name, inputSchema: tool.inputSchema as Record<string, unknown> };
  if (tool.title !== undefined) view.title = tool.title;
  if (tool.description !== undefined) view.description = tool.description;
  if (tool.annotations !== undefined) view.annotations = tool.annotations as Record<string, unknown>;
  return view;
}
