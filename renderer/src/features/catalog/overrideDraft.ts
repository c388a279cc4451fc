/**
 * The override editor's form state and the override it stands for: text
 * fields, each annotation as the server says / yes / no, and each argument as
 * is / default / fixed with a JSON value. Reading the form is pure, so the
 * preview and Save send exactly what the form shows; a value that is not JSON
 * is the form's own error, named by its argument.
 */
import type { CatalogEntry } from '../../../../shared/model/views.js';
import type { OverrideSection, ToolOverride } from '../../../../shared/model/overrides.js';

/** The four annotations an override may set. */
export const HINTS = [
  { key: 'readOnlyHint', label: 'Read-only' },
  { key: 'destructiveHint', label: 'Destructive' },
  { key: 'idempotentHint', label: 'Idempotent' },
  { key: 'openWorldHint', label: 'Open world' },
] as const;

type HintKey = (typeof HINTS)[number]['key'];
/** An annotation in the form: the server's, or set to yes or no. */
export type HintChoice = 'server' | 'yes' | 'no';
/** An argument in the form: as the server has it, a default, or fixed and hidden. */
export type ArgumentMode = 'as-is' | 'default' | 'fixed';

/** What the editor's form holds. */
export interface OverrideForm {
  name: string;
  title: string;
  description: string;
  hints: Record<HintKey, HintChoice>;
  arguments: Record<string, { mode: ArgumentMode; value: string }>;
}

/** Where an entry's override lives: its tools, or a prompt or resource offered as a tool; none for a template. */
export function sectionOf(entry: CatalogEntry): OverrideSection | undefined {
  if (entry.kind === 'tool') {
    if (entry.via === 'prompt') return 'promptsAsTools';
    return entry.via === 'resource' ? 'resourcesAsTools' : 'tools';
  }
  if (entry.kind === 'prompt') return 'promptsAsTools';
  return entry.kind === 'resource' ? 'resourcesAsTools' : undefined;
}

/** The name, title and description the model sees without this level's override (the form starts from them). */
export interface OverrideBase {
  name?: string | undefined;
  title?: string | undefined;
  description?: string | undefined;
}

/** What this level's override is laid over: the server's own override (for a profile) over the server's definition. */
export function baseOf(upstream: OverrideBase | undefined, inherited: OverrideBase | undefined): OverrideBase {
  return {
    name: inherited?.name ?? upstream?.name,
    title: inherited?.title ?? upstream?.title,
    description: inherited?.description ?? upstream?.description,
  };
}

/**
 * The form for a saved override (or none) over the arguments the server's tool takes, its text
 * fields filled with what the model sees now (`base` where this level sets nothing).
 */
export function formOf(
  override: ToolOverride | undefined,
  argumentNames: readonly string[],
  base: OverrideBase = {},
): OverrideForm {
  const hints = Object.fromEntries(
    HINTS.map(({ key }) => {
      const value = override?.annotations?.[key];
      return [key, value === undefined ? 'server' : value ? 'yes' : 'no'];
    }),
  ) as Record<HintKey, HintChoice>;
  const names = [...new Set([...argumentNames, ...Object.keys(override?.arguments ?? {})])];
  const args = Object.fromEntries(
    names.map((name) => {
      const own = override?.arguments?.[name];
      if (own && 'fixed' in own) return [name, { mode: 'fixed', value: JSON.stringify(own.fixed) }];
      if (own && 'default' in own) return [name, { mode: 'default', value: JSON.stringify(own.default) }];
      return [name, { mode: 'as-is', value: '' }];
    }),
  ) as OverrideForm['arguments'];
  return {
    name: override?.name ?? base.name ?? '',
    title: override?.title ?? base.title ?? '',
    description: override?.description ?? base.description ?? '',
    hints,
    arguments: args,
  };
}

/**
 * The override the form stands for (null: nothing set), or the arguments whose value is not JSON.
 * A text field left as `base` has it (it was prefilled), or emptied, sets nothing.
 */
export function readOverrideForm(
  form: OverrideForm,
  isTool: boolean,
  base: OverrideBase = {},
): { override: ToolOverride | null; errors: Record<string, string> } {
  const override: ToolOverride = {};
  if (form.name.trim() && form.name.trim() !== base.name) override.name = form.name.trim();
  if (form.title.trim() && form.title.trim() !== base.title) override.title = form.title.trim();
  if (form.description.trim() && form.description !== base.description) override.description = form.description;
  const errors: Record<string, string> = {};
  if (isTool) {
    const annotations: NonNullable<ToolOverride['annotations']> = {};
    for (const { key } of HINTS) if (form.hints[key] !== 'server') annotations[key] = form.hints[key] === 'yes';
    if (Object.keys(annotations).length > 0) override.annotations = annotations;
    const args: NonNullable<ToolOverride['arguments']> = {};
    for (const [name, { mode, value }] of Object.entries(form.arguments)) {
      if (mode === 'as-is') continue;
      try {
        args[name] = { [mode]: JSON.parse(value) as unknown } as { fixed: never };
      } catch {
        errors[name] = 'must be JSON (a string in quotes: "text")';
      }
    }
    if (Object.keys(args).length > 0) override.arguments = args;
  }
  return { override: Object.keys(override).length > 0 ? override : null, errors };
}
