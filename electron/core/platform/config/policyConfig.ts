/**
 * The `policy` section of the config: what each client may see and do.
 * Rules are keyed by backend ID and the item's ORIGINAL name or URI, so they
 * survive restarts, re-orderings and prefix changes.
 *
 * ```json
 * "policy": {
 *   "defaultRule": "allow",
 *   "backends": {
 *     "github": { "defaultRule": "deny", "tools": { "create_issue": "ask", "search": "allow" } },
 *     "shell": { "enabled": false }
 *   },
 *   "clients": {
 *     "cursor": { "name": "Cursor", "backends": ["github"], "maxTools": 40,
 *                 "items": { "github": { "tools": { "create_issue": "deny" } } } }
 *   },
 *   "limits": [{ "match": { "client": "cursor" }, "rate": { "points": 10, "perSeconds": 60 } }]
 * }
 * ```
 */
import { z } from 'zod';
import { EXPOSURES } from '../../../../shared/model/exposure.js';
import { BACKEND_ID_PATTERN } from '../../../../shared/ids.js';
import { ServerOverridesSchema } from './overridesConfig.js';
import { LimitsSchema } from './limitsConfig.js';

const ToolRule = z.enum(['allow', 'deny', 'ask']);
/**
 * How a client gets its tools: `all` lists every tool it may use; `search` lists
 * only the `search_tools` and `call_tool` meta-tools (and tools pinned to always
 * show); `search+load` also lists what each session found; `auto` lists all
 * while they fit the client's `maxTools` and `maxToolTokens`, and searches
 * beyond (see catalog/policy/policyEngine.ts and shared/model/exposure.ts).
 */
const Exposure = z.enum(EXPOSURES);
const ItemRule = z.enum(['allow', 'deny']);

/** Rules for one backend's items. */
const ItemRules = z.strictObject({
  tools: z.record(z.string(), ToolRule).optional(),
  prompts: z.record(z.string(), ItemRule).optional(),
  resources: z.record(z.string(), ItemRule).optional(),
  resourceTemplates: z.record(z.string(), ItemRule).optional(),
  /** Skills (SEP-2640) by name. */
  skills: z.record(z.string(), ItemRule).optional(),
});

const BackendPolicy = ItemRules.extend({
  /** false hides the whole backend from every client. */
  enabled: z.boolean().optional(),
  /** Rule for items without their own rule, including ones the backend adds later. */
  defaultRule: ItemRule.optional(),
  /** Withhold tools whose definition changed until the user approves (default on). */
  pinning: z.boolean().optional(),
  /** Record arguments and results in the audit log (default off). */
  capture: z.boolean().optional(),
  /**
   * Tools (original names) listed even in search mode, marked
   * `_meta["anthropic/alwaysLoad"]` so clients with their own tool search load them too.
   */
  alwaysShow: z.array(z.string()).optional(),
  /** Gateway mode: scopes a token needs to see and call any of this backend's tools (toolScopes.ts). */
  scopes: z.array(z.string().min(1)).optional(),
  /** Gateway mode: more scopes per tool (original name), on top of `scopes`. */
  toolScopes: z.record(z.string(), z.array(z.string().min(1))).optional(),
});

const ClientProfile = z.strictObject({
  name: z.string().min(1),
  /** Backends this client sees; absent means all. */
  backends: z.array(z.string()).optional(),
  /** Per-item overrides for this client. */
  items: z.record(z.string(), ItemRules).optional(),
  /** Show at most this many tools (some clients only use the first 40-128). */
  maxTools: z.number().int().positive().optional(),
  /**
   * Longest tool and prompt name this client accepts. Claude Code shows a tool
   * as `mcp__<key>__<name>` and refuses the whole server when that passes 64
   * characters, so its profile gets 64 - len("mcp__sb__") = 55. Longer names
   * are shortened for this client only, with the same stable hash suffix.
   */
  maxNameLength: z.number().int().min(16).max(64).optional(),
  /** This client's exposure (default: the policy's `exposure`). */
  exposure: Exposure.optional(),
  /** In the search modes: offer code mode's `run_code` beside `search_tools` and `call_tool`. */
  runCode: z.boolean().optional(),
  /**
   * In the search modes: list this many of the tools this client calls most beside the meta-tools
   * (pinned like `alwaysShow`; counted by each process since it started).
   */
  pinMostUsed: z.number().int().min(1).max(10).optional(),
  /** With `exposure: "auto"`: the most tokens (o200k) the full tools/list may take before search takes over. */
  maxToolTokens: z.number().int().positive().optional(),
  /** This client's tool overrides per backend, merged field by field over the server's own (overridesConfig.ts). */
  overrides: z.record(z.string(), ServerOverridesSchema).optional(),
});

/** Gateway mode: the client profile a principal or a group is served with. */
const ProfileBinding = z.strictObject({ profile: z.string().min(1, 'must name a client profile') });

/** The `policy` section. */
export const PolicySchema = z
  .strictObject({
    /** Default rule of a backend that has no policy of its own. */
    defaultRule: ItemRule.default('allow'),
    /** Exposure of every client without its own (the main token included); absent means `all`. */
    exposure: Exposure.optional(),
    backends: z.record(z.string(), BackendPolicy).default({}),
    clients: z
      .record(z.string().regex(BACKEND_ID_PATTERN, 'client IDs use letters, digits, _ and -'), ClientProfile)
      .default({}),
    /** Gateway mode: a principal (token subject or email) to its profile; checked before `groups`. */
    principals: z.record(z.string().min(1), ProfileBinding).optional(),
    /** Gateway mode: a group (the token's groups claim) to its profile; the first listed match wins. */
    groups: z.record(z.string().min(1), ProfileBinding).optional(),
    /** Rate limits and quotas on routed requests (limitsConfig.ts); absent: none. */
    limits: LimitsSchema.optional(),
  })
  .superRefine((policy, ctx) => {
    for (const section of ['principals', 'groups'] as const) {
      for (const [key, { profile }] of Object.entries(policy[section] ?? {})) {
        if (policy.clients[profile] === undefined)
          ctx.addIssue({
            code: 'custom',
            path: [section, key, 'profile'],
            message: `no client profile "${profile}" in policy.clients`,
          });
      }
    }
  })
  .prefault({});

/** One client profile (`policy.clients.<id>`) and one backend's policy, for profile files (install/profileFiles/). */
export { ClientProfile as ClientProfileSchema, BackendPolicy as BackendPolicySchema };

export type Policy = z.output<typeof PolicySchema>;
export type BackendPolicy = z.output<typeof BackendPolicy>;
export type ClientProfile = z.output<typeof ClientProfile>;
export type ToolRule = z.output<typeof ToolRule>;
export type ItemRule = z.output<typeof ItemRule>;
/** The kinds of catalog item a rule can name. */
export type ItemKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates' | 'skills';

/** The client ID of requests made with the main token (the local user, stdio). */
export const LOCAL_CLIENT = 'local';
