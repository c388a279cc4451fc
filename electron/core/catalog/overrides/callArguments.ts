/**
 * A call's arguments as the server receives them under argument overrides:
 * a fixed argument is the configured value whatever the client sent, and a
 * client that sets a fixed (hidden) argument is refused, naming it, rather
 * than silently overruled; a default fills an argument the client left out.
 */
import type { ArgumentOverride } from '../../platform/config/overridesConfig.js';

/** The rewritten arguments, or the hidden argument the client tried to set. */
export type RewrittenArguments =
  { ok: true; arguments: Record<string, unknown> | undefined } | { ok: false; hidden: string };

/** Applies `overrides` to a call's arguments (never changing the caller's object). */
export function rewriteArguments(
  args: Record<string, unknown> | undefined,
  overrides: Record<string, ArgumentOverride> | undefined,
): RewrittenArguments {
  if (!overrides) return { ok: true, arguments: args };
  const out: Record<string, unknown> = { ...args };
  for (const [argument, override] of Object.entries(overrides)) {
    if ('fixed' in override) {
      if (args && Object.hasOwn(args, argument)) return { ok: false, hidden: argument };
      out[argument] = override.fixed;
    } else if ('default' in override && (!args || !Object.hasOwn(args, argument))) {
      out[argument] = override.default;
    }
  }
  return { ok: true, arguments: out };
}
