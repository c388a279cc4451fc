/**
 * Access control as the core exposes it: the policy (views and decisions),
 * client profiles with their tokens, and pending `ask` approvals. Every change
 * persists to the config file's `policy` section and takes effect at once:
 * connected clients are told their lists changed, and a revoked token is
 * refused from its next request on, including on open sessions.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { Catalog } from '../catalog.js';
import type { ConfigStore } from '../../platform/config/configStore.js';
import { diffPaths, patchObject } from '../../platform/config/configPatch.js';
import { ApprovalBroker } from './approvals.js';
import { itemIndex, ruleKindOf } from './itemKinds.js';
import type { ClientTokens } from './clientTokens.js';
import { UnknownTokenRecheck } from './unknownTokenRecheck.js';
import type { AuditDecision } from './auditEntry.js';
import {
  LOCAL_CLIENT,
  PolicySchema,
  type ClientProfile,
  type ItemKind,
  type Policy,
  type ToolRule,
} from '../../platform/config/policyConfig.js';
import type { AnyToolOverride } from '../overrides/toolSource.js';
import { PolicyEngine, type ClientView, type WithheldItems } from './policyEngine.js';

/** A policy validation failure as `config_invalid`. */
function invalid(issues: readonly { path: PropertyKey[]; message: string }[]): SwitchboardError {
  return new SwitchboardError(
    ErrorCode.ConfigInvalid,
    `invalid policy: ${issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ')}`,
  );
}

/** `mutate` applied to a copy of `policy`, validated. */
function checkedPolicy(policy: Policy, mutate: (policy: Policy) => void): Policy {
  const draft = structuredClone(policy);
  mutate(draft);
  const parsed = PolicySchema.safeParse(draft);
  if (!parsed.success) throw invalid(parsed.error.issues);
  return parsed.data;
}

/** Callbacks into the core. */
export interface AccessControlHost {
  /** The policy changed: every client's lists may differ. */
  policyChanged(): void;
  /** A client's token was revoked: close its sessions. */
  clientRevoked(client: string): void;
  /** The set of pending approvals changed. */
  approvalsChanged(): void;
}

/** Policy, client profiles, tokens and approvals. */
export class AccessControl {
  readonly engine: PolicyEngine;
  readonly approvals: ApprovalBroker;
  /** Re-reads the token file and the policy for a token nobody knows (rate-limited). */
  private readonly recheck = new UnknownTokenRecheck(
    () => [this.options.tokens?.path, this.options.store?.path].filter((file) => file !== undefined),
    () => this.rereadClients(),
  );

  constructor(
    policy: Policy,
    private readonly hooks: AccessControlHost,
    private readonly options: {
      store?: ConfigStore | undefined;
      tokens?: ClientTokens | undefined;
      approvalTimeoutMs?: number;
      withheld?: WithheldItems;
      /** Why an item is withheld (quarantine, a held change), for the answer to a client that calls it. */
      whyWithheld?: (backendId: string, kind: ItemKind, original: string) => 'quarantined' | 'held' | undefined;
    } = {},
  ) {
    this.engine = new PolicyEngine(policy, options.withheld);
    this.approvals = new ApprovalBroker(options.approvalTimeoutMs ?? 60_000, () => hooks.approvalsChanged());
  }

  /** The policy in force. */
  get policy(): Policy {
    return this.engine.current;
  }

  /** What a client sees of the catalog. */
  view(client: string, catalog: Catalog): ClientView {
    return this.engine.view(client, catalog);
  }

  /**
   * The decision for one request: `deny` for anything the client cannot see
   * (it must answer exactly as an unknown item), else `ask` or `allow`.
   */
  authorize(client: string, catalog: Catalog, kind: ItemKind, key: string): ToolRule {
    return this.decide(client, catalog, kind, key).rule;
  }

  /** `authorize` with the level that decided (`hidden`: not in the client's view), for the request log. */
  decide(client: string, catalog: Catalog, kind: ItemKind, key: string): AuditDecision {
    const origin = itemIndex(catalog, kind).get(key);
    if (!origin) return { rule: 'deny', source: 'hidden' };
    const decision = this.engine.decide(client, ruleKindOf(kind, origin), origin.backendId, origin.original);
    // A rule of deny is the reason itself; anything else the view left out was hidden by something other than a rule.
    if (decision.rule === 'deny' || this.engine.view(client, catalog).allowed[kind].has(key)) return decision;
    // Withheld for review while the client's rules allow it: its answer may say why (never for a denied item).
    const why = this.options.whyWithheld?.(origin.backendId, ruleKindOf(kind, origin), origin.original);
    return { rule: 'deny', source: why ?? 'hidden' };
  }

  /** The override in force for one client's call of a tool (catalog name): the server's, with the profile's on top. */
  toolOverride(client: string, catalog: Catalog, name: string): AnyToolOverride | undefined {
    return this.engine.toolOverride(client, catalog, name);
  }

  /** The name a client sees for a tool (catalog name), for the request log. */
  clientToolName(client: string, catalog: Catalog, name: string): string {
    return this.engine.clientName(client, catalog, name);
  }

  /** Applies a hand edit of the policy section (already validated). */
  replace(policy: Policy): void {
    this.engine.replace(policy);
    this.hooks.policyChanged();
  }

  /**
   * Changes the policy: `mutate` runs on the policy as it is in the config
   * file now (so a hand edit or another process's write is kept), only what it
   * changed is written, and the result is in force (nothing changes if the
   * result does not validate or saving fails).
   */
  async update(mutate: (policy: Policy) => void): Promise<Policy> {
    const store = this.options.store;
    if (!store) {
      const next = checkedPolicy(this.engine.current, mutate);
      this.replace(next);
      return next;
    }
    let next: Policy | undefined;
    await store.change((document) => {
      const raw = (document['policy'] ?? {}) as Record<string, unknown>;
      const onDisk = PolicySchema.safeParse(raw);
      if (!onDisk.success) throw invalid(onDisk.error.issues);
      const changed = checkedPolicy(onDisk.data, mutate);
      // Only the members `mutate` changed go into the user's section (defaults are not written out).
      const patched = structuredClone(raw);
      patchObject(patched, diffPaths(onDisk.data, changed));
      document['policy'] = patched;
      next = changed;
    });
    if (next) this.replace(next);
    return next ?? this.engine.current;
  }

  /** Sets one item's rule for everyone, or for one client profile. */
  async setRule(backend: string, kind: ItemKind, original: string, rule: ToolRule, client?: string): Promise<void> {
    if (kind !== 'tools' && rule === 'ask') {
      throw new SwitchboardError(ErrorCode.ConfigInvalid, `only tools can be set to ask, not ${kind}`);
    }
    await this.update((policy) => {
      if (client === undefined || client === LOCAL_CLIENT) {
        const entry = (policy.backends[backend] ??= {});
        (entry[kind] ??= {})[original] = rule as never;
        return;
      }
      const profile = this.profile(policy, client);
      const items = ((profile.items ??= {})[backend] ??= {});
      (items[kind] ??= {})[original] = rule as never;
    });
  }

  private profile(policy: Policy, client: string): ClientProfile {
    const profile = policy.clients[client];
    if (!profile) throw new SwitchboardError(ErrorCode.UnknownClient, `no client profile "${client}"`, { client });
    return profile;
  }

  /** Creates a client profile and its token; the token is returned once and never stored in clear. */
  async createProfile(client: string, profile: ClientProfile): Promise<string> {
    if (client === LOCAL_CLIENT || this.policy.clients[client]) {
      throw new SwitchboardError(ErrorCode.DuplicateClient, `a client "${client}" already exists`, { client });
    }
    const tokens = this.requireTokens();
    await this.update((policy) => {
      policy.clients[client] = profile;
    });
    return tokens.issue(client);
  }

  /** Issues a new token for a client; the old one stops working at once. */
  async rotateToken(client: string): Promise<string> {
    this.profile(this.policy, client);
    const token = await this.requireTokens().issue(client);
    this.hooks.clientRevoked(client);
    return token;
  }

  /** Revokes a client's token (its profile stays, to be re-issued later). */
  async revokeProfile(client: string): Promise<void> {
    await this.requireTokens().revoke(client);
    this.hooks.clientRevoked(client);
  }

  /** The client a token belongs to (the main token is handled by the endpoint). */
  authenticate(token: string): string | undefined {
    const client = this.options.tokens?.authenticate(token);
    return client !== undefined && this.policy.clients[client] ? client : undefined;
  }

  /**
   * Like {@link authenticate}, but a token nobody knows makes us re-read the
   * token file and the config's policy first (rate-limited, see
   * unknownTokenRecheck.ts): a client `install` just set up from another
   * process is known before the file watcher would bring it.
   */
  async authenticateRechecking(token: string): Promise<string | undefined> {
    const known = this.authenticate(token);
    if (known !== undefined || !this.options.tokens) return known;
    return (await this.recheck.run()) ? this.authenticate(token) : undefined;
  }

  /** The token file and the policy as they are on disk now (the watcher applies the rest of an edit later). */
  private async rereadClients(): Promise<void> {
    await this.options.tokens?.load().catch(() => undefined);
    const stored = await this.options.store?.read().catch(() => undefined);
    if (stored && JSON.stringify(stored.config.policy) !== JSON.stringify(this.policy)) {
      this.replace(stored.config.policy);
    }
  }

  private requireTokens(): ClientTokens {
    if (!this.options.tokens) {
      throw new SwitchboardError(ErrorCode.ConfigInvalid, 'client tokens are not available in this mode');
    }
    return this.options.tokens;
  }
}
