/**
 * The `policy.limits` section of the config: rate limits and quotas on routed
 * requests, per caller (a client profile today, a signed-in person and their
 * groups in gateway mode), per server and per tool. Each rule is a token
 * bucket of `rate.points` calls per `rate.perSeconds`, kept per caller unless
 * `shared`; enforcement is catalog/policy/limits/rateLimits.ts.
 *
 * ```json
 * "limits": [
 *   { "match": { "client": "cursor" }, "server": "github", "tool": "create_issue",
 *     "rate": { "points": 10, "perSeconds": 60 }, "burst": 5 },
 *   { "match": { "group": "eng" }, "rate": { "points": 1000, "perSeconds": 86400 } },
 *   { "match": {}, "rate": { "points": 120, "perSeconds": 60 } }
 * ]
 * ```
 */
import { z } from 'zod';

/**
 * The longest window: the in-memory limiter expires each bucket with a timer,
 * and Node's timers stop at about 24.8 days.
 */
export const MAX_WINDOW_SECONDS = 2_000_000;

/** Who a rule applies to: one client profile, one person, one group, or (empty) everyone. */
const LimitMatch = z
  .strictObject({
    /** A client profile ID (`local` for the main token). */
    client: z.string().min(1).optional(),
    /** A signed-in person: their subject or their email. */
    principal: z.string().min(1).optional(),
    /** A group a signed-in person belongs to. */
    group: z.string().min(1).optional(),
  })
  .refine((match) => Object.keys(match).length <= 1, {
    error: 'names at most one of client, principal and group ({} matches everyone)',
  });

/** How fast a bucket refills: `points` requests per `perSeconds`. */
const LimitRate = z.strictObject({
  points: z.number().int().positive(),
  perSeconds: z.number().positive().max(MAX_WINDOW_SECONDS, `must be at most ${MAX_WINDOW_SECONDS} (about 23 days)`),
});

/** One rule: who, on what, how much. */
export const LimitRuleSchema = z
  .strictObject({
    match: LimitMatch,
    /** A server (backend ID): only requests to its items count. Absent: every server. */
    server: z.string().min(1).optional(),
    /** A tool, by the server's own name or as clients see it (`fx__get.weather`): only calls of it count. Needs `server`. */
    tool: z.string().min(1).optional(),
    rate: LimitRate,
    /** Extra requests allowed on top of the rate, refilled once per ten windows. */
    burst: z.number().int().positive().optional(),
    /** One bucket for everyone the rule matches (a team's quota) instead of one per caller. */
    shared: z.boolean().optional(),
  })
  .refine((rule) => rule.tool === undefined || rule.server !== undefined, {
    error: 'a rule that names a tool must name its server too',
    path: ['tool'],
  });

/** The `policy.limits` list. */
export const LimitsSchema = z.array(LimitRuleSchema);

export type LimitRule = z.output<typeof LimitRuleSchema>;
export type LimitMatch = LimitRule['match'];
export type LimitRate = LimitRule['rate'];
