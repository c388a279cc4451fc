/**
 * The shape of tool overrides, in one place for the config file
 * (electron/core/platform/config/overridesConfig.ts) and the contract's
 * `overrides.*` methods: what the model sees of a server's tools, changed
 * without forking the server. Keys are ORIGINAL tool names, prompt names and
 * resource URIs. An argument is either `fixed` (hidden from the model, forced)
 * or has a `default` (filled in when omitted), with an optional description.
 */
import { z } from 'zod';

/** One argument: `fixed` (hidden from the model, forced) or `default` (filled in when omitted). */
export const ArgumentOverrideSchema = z
  .strictObject({
    fixed: z.json().optional(),
    default: z.json().optional(),
    description: z.string().optional(),
  })
  .refine((argument) => !('fixed' in argument && 'default' in argument), {
    error: 'an argument is either fixed or has a default, not both',
  });

/** The behaviour hints a client may show or act on (MCP ToolAnnotations). */
export const AnnotationOverrideSchema = z.strictObject({
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

/** An exposed name before the server's prefix: sanitised like every other name (catalog/naming.ts). */
const overrideName = z.string().min(1, 'must not be empty').max(64, 'at most 64 characters');

/** One tool's override. */
export const ToolOverrideSchema = z.strictObject({
  name: overrideName.optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  annotations: AnnotationOverrideSchema.optional(),
  arguments: z.record(z.string(), ArgumentOverrideSchema).optional(),
});

/** A prompt or resource offered as a tool, for clients that only do tools. */
export const ItemAsToolSchema = z.strictObject({
  name: overrideName.optional(),
  title: z.string().optional(),
  description: z.string().optional(),
});

/** One server's overrides (also one profile's, for one server). */
export const ServerOverridesSchema = z.strictObject({
  tools: z.record(z.string(), ToolOverrideSchema).optional(),
  promptsAsTools: z.record(z.string(), ItemAsToolSchema).optional(),
  resourcesAsTools: z.record(z.string(), ItemAsToolSchema).optional(),
});

export type ArgumentOverride = z.output<typeof ArgumentOverrideSchema>;
export type AnnotationOverride = z.output<typeof AnnotationOverrideSchema>;
export type ToolOverride = z.output<typeof ToolOverrideSchema>;
export type ItemAsTool = z.output<typeof ItemAsToolSchema>;
export type ServerOverrides = z.output<typeof ServerOverridesSchema>;

/** Where an override lives in a server's `overrides`: its tools, or its prompts or resources offered as tools. */
export const OVERRIDE_SECTIONS = ['tools', 'promptsAsTools', 'resourcesAsTools'] as const;
/** One of {@link OVERRIDE_SECTIONS}. */
export type OverrideSection = (typeof OVERRIDE_SECTIONS)[number];

/** A tool definition as the override editor shows it: the server's own, or what the model sees. */
export interface ToolDefinitionView {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** One item's override at one level (a server's, or a profile's for it), with what the model would see. */
export interface OverrideView {
  /** The override set at this level (absent: none). */
  override?: ToolOverride | ItemAsTool;
  /** For a profile: the server's own override it is laid over. */
  inherited?: ToolOverride | ItemAsTool;
  /** The server's own definition (absent: the server does not serve the item now). */
  upstream?: ToolDefinitionView;
  /** What the model sees (with the draft, when one was given), under its exposed name. */
  preview?: ToolDefinitionView;
  /** o200k tokens the preview costs in a tools/list. */
  tokens?: number;
  /** What is wrong with the draft, each field named by dotted path (nothing is saved while there are any). */
  problems: { path: string; message: string }[];
}
