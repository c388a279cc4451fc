/**
 * A profile's override on top of its server's, field by field: the profile's
 * name, title and description win where it sets them, its annotations are laid
 * over the server's, and per argument its fixed value or default replaces the
 * server's (a description alone keeps the server's value).
 */
import type { ArgumentOverride, ToolOverride } from '../../platform/config/overridesConfig.js';
import type { AnyToolOverride } from './toolSource.js';

/** `top` over `base`; undefined when neither sets anything. */
export function mergeOverrides(
  base: AnyToolOverride | undefined,
  top: AnyToolOverride | undefined,
): AnyToolOverride | undefined {
  if (!top) return base;
  if (!base) return top;
  const merged: ToolOverride = { ...base, ...top };
  const baseTool = base as ToolOverride;
  const topTool = top as ToolOverride;
  if (baseTool.annotations || topTool.annotations)
    merged.annotations = { ...baseTool.annotations, ...topTool.annotations };
  if (baseTool.arguments || topTool.arguments)
    merged.arguments = mergeArguments(baseTool.arguments ?? {}, topTool.arguments ?? {});
  return merged;
}

function mergeArguments(
  base: Record<string, ArgumentOverride>,
  top: Record<string, ArgumentOverride>,
): Record<string, ArgumentOverride> {
  const merged = { ...base };
  for (const [argument, override] of Object.entries(top)) {
    const own = base[argument];
    const setsValue = 'fixed' in override || 'default' in override;
    merged[argument] =
      !own || setsValue
        ? { ...(own?.description !== undefined ? { description: own.description } : {}), ...override }
        : { ...own, ...override };
  }
  return merged;
}
