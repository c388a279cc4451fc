/**
 * The policy as a service of the core (api/services.ts `PolicyService`): the
 * policy in force and its decisions; the Authorization screen's view of every
 * item's rule (and which level decided it), and the changes the user makes
 * there (a rule, a server's settings, which servers a profile sees, a
 * profile's exposure); and the review of changed tool definitions (the tool
 * pins), whose approval shows the tool again. The host's handlers only
 * translate the contract to these calls; every change goes through
 * `AccessControl.update`, so it is validated, written to the config file and
 * in force at once.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { Exposure } from '../../../../shared/model/exposure.js';
import type { PolicyItemView, PolicyView } from '../../../../shared/model/views.js';
import type { Catalog } from '../catalog.js';
import type { AccessControl } from './accessControl.js';
import { ITEM_KINDS, itemIndex } from './itemKinds.js';
import type { PinChange, PinStore } from './pinStore.js';
import type { ClientView } from './policyEngine.js';
import {
  LOCAL_CLIENT,
  type ItemKind,
  type ItemRule,
  type Policy,
  type ToolRule,
} from '../../platform/config/policyConfig.js';
import { ruleLayers } from './ruleLayers.js';

/** A server's settings for everyone; or, with a `profile`, only whether that profile sees it. */
export interface BackendSettings {
  backendId: string;
  /** `*` or absent: everyone. */
  profile?: string | undefined;
  visible?: boolean | undefined;
  enabled?: boolean | undefined;
  defaultRule?: ItemRule | undefined;
  pinning?: boolean | undefined;
  capture?: boolean | undefined;
}

/** One rule of a batch (`rule: null` clears it). */
export interface RuleChange {
  backendId: string;
  kind: ItemKind;
  original: string;
  rule: ToolRule | null;
}

/** What the policy service reads of the core. */
export interface PolicyServiceHost {
  readonly access: AccessControl;
  catalog(): Catalog;
  backendConfigs(): readonly { id: string }[];
  /** The tool pins (undefined: pinning is off). */
  pins(): PinStore | undefined;
  /** Whether an item is withheld from every client (quarantine, a held change). */
  withheld(backendId: string, kind: ItemKind, original: string): boolean;
  /** Tells the clients that lists changed (an approved tool is shown again). */
  catalogChanged(change: { tools: boolean; prompts: boolean; resources: boolean }): void;
}

/** The profile a contract call names: `*` and absent mean everyone (the local client's rules). */
function profileOf(requested: string | undefined): string {
  return requested === undefined || requested === '*' ? LOCAL_CLIENT : requested;
}

function unknownClient(client: string): SwitchboardError {
  return new SwitchboardError(ErrorCode.UnknownClient, `no client profile "${client}"`, { client });
}

/** The policy service over the core's access control. */
export class CorePolicyService {
  constructor(private readonly host: PolicyServiceHost) {}

  /** The policy in force. */
  get current(): Policy {
    return this.host.access.policy;
  }

  /** A client's rule for one item of a backend (its own name or URI). */
  rule(client: string, kind: ItemKind, backendId: string, original: string): ToolRule {
    return this.host.access.engine.rule(client, kind, backendId, original);
  }

  /** What a client sees of a catalog. */
  view(client: string, catalog: Catalog): ClientView {
    return this.host.access.view(client, catalog);
  }

  /** Changes the policy (on the config file's current policy); see AccessControl.update. */
  update(mutate: (policy: Policy) => void): Promise<Policy> {
    return this.host.access.update(mutate);
  }

  /** Tool definitions that changed and wait for the user's approval (old vs new). */
  pinChanges(): PinChange[] {
    return this.host.pins()?.changes() ?? [];
  }

  /** Approves a changed tool definition: the tool is shown again, its new definition pinned. */
  async approvePin(backendId: string, tool: string): Promise<void> {
    const pins = this.host.pins();
    if (!pins) throw new SwitchboardError(ErrorCode.UnknownChange, 'tool pinning is not enabled');
    await pins.approve(backendId, tool);
    this.host.access.engine.invalidate();
    this.host.catalogChanged({ tools: true, prompts: false, resources: false });
  }

  authorizationView(requested?: string): Omit<PolicyView, 'tools'> {
    const profile = profileOf(requested);
    const { access } = this.host;
    const policy = access.policy;
    if (profile !== LOCAL_CLIENT && !policy.clients[profile]) throw unknownClient(profile);
    const catalog = this.host.catalog();
    const items = ITEM_KINDS.flatMap((kind) =>
      [...itemIndex(catalog, kind)].map(([exposed, { backendId, original }]): PolicyItemView => {
        const readOnly = kind === 'tools' && catalog.toolByName.get(exposed)?.annotations?.readOnlyHint === true;
        return {
          kind,
          exposed,
          backendId,
          original,
          ...ruleLayers(policy, profile, kind, backendId, original),
          withheld: this.host.withheld(backendId, kind, original),
          ...(readOnly ? { readOnly } : {}),
        };
      }),
    );
    return {
      profile: requested ?? '*',
      backends: this.host.backendConfigs().map(({ id }) => backendView(policy, profile, id)),
      items,
    };
  }

  async setRule(
    backendId: string,
    kind: ItemKind,
    original: string,
    rule: ToolRule | null,
    requested?: string,
  ): Promise<void> {
    const profile = profileOf(requested);
    const { access } = this.host;
    if (rule !== null) return access.setRule(backendId, kind, original, rule, profile);
    await access.update((policy) => {
      if (profile !== LOCAL_CLIENT && !policy.clients[profile]) throw unknownClient(profile);
      const rules = profile === LOCAL_CLIENT ? policy.backends[backendId] : policy.clients[profile]?.items?.[backendId];
      if (rules?.[kind]) delete rules[kind][original];
    });
  }

  async setBackend(settings: BackendSettings): Promise<void> {
    const { backendId } = settings;
    const profile = profileOf(settings.profile);
    const { access } = this.host;
    if (profile !== LOCAL_CLIENT) {
      const visible = settings.visible;
      if (visible === undefined) {
        throw new SwitchboardError(ErrorCode.InvalidParams, 'with a profile, only "visible" can be set');
      }
      const all = this.host.backendConfigs().map((backend) => backend.id);
      await access.update((policy) => {
        const client = policy.clients[profile];
        if (!client) throw new SwitchboardError(ErrorCode.UnknownClient, `no client profile "${profile}"`);
        // An absent list means every server: hiding one lists all the others.
        const seen = new Set(client.backends ?? all);
        if (visible) seen.add(backendId);
        else seen.delete(backendId);
        client.backends = all.filter((id) => seen.has(id)).concat([...seen].filter((id) => !all.includes(id)));
      });
      return;
    }
    await access.update((policy) => {
      const rules = (policy.backends[backendId] ??= {});
      if (settings.enabled !== undefined) rules.enabled = settings.enabled;
      if (settings.defaultRule !== undefined) rules.defaultRule = settings.defaultRule;
      if (settings.pinning !== undefined) rules.pinning = settings.pinning;
      if (settings.capture !== undefined) rules.capture = settings.capture;
    });
  }

  async setRules(changes: readonly RuleChange[], requested?: string): Promise<void> {
    const profile = profileOf(requested);
    const { access } = this.host;
    changes.forEach((change, index) => {
      if (change.rule === 'ask' && change.kind !== 'tools') {
        throw new SwitchboardError(ErrorCode.InvalidParams, `rules[${index}].rule: only tools can be set to ask`, {
          path: `rules.${index}.rule`,
        });
      }
    });
    if (profile !== LOCAL_CLIENT && !access.policy.clients[profile]) throw unknownClient(profile);
    await access.update((policy) => {
      for (const { backendId, kind, original, rule } of changes) {
        const holder =
          profile === LOCAL_CLIENT
            ? (policy.backends[backendId] ??= {})
            : ((policy.clients[profile]!.items ??= {})[backendId] ??= {});
        if (rule === null) delete holder[kind]?.[original];
        else (holder[kind] ??= {})[original] = rule as never;
      }
    });
  }

  async setExposure(requested: string, exposure: Exposure | null): Promise<void> {
    const client = profileOf(requested);
    const { access } = this.host;
    if (client === LOCAL_CLIENT) {
      // The main token has no profile: it gets the policy's default.
      await access.update((policy) => {
        if (exposure === null) delete policy.exposure;
        else policy.exposure = exposure;
      });
      return;
    }
    if (!access.policy.clients[client]) throw unknownClient(client);
    await access.update((policy) => {
      const profile = policy.clients[client]!;
      if (exposure === null) delete profile.exposure;
      else profile.exposure = exposure;
    });
  }
}

/** One server's settings as `profile` sees them. */
function backendView(policy: Policy, profile: string, id: string): PolicyView['backends'][number] {
  const rules = policy.backends[id];
  return {
    id,
    enabled: rules?.enabled !== false,
    defaultRule: rules?.defaultRule ?? policy.defaultRule,
    pinning: rules?.pinning !== false,
    capture: rules?.capture === true,
    visible: profile === LOCAL_CLIENT || (policy.clients[profile]?.backends?.includes(id) ?? true),
  };
}
