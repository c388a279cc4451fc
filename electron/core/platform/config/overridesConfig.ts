/**
 * Tool overrides in the config: what the model sees of a server's tools,
 * changed without forking the server. `mcpServers.<id>.overrides` is the
 * server's; `policy.clients.<id>.overrides.<backendId>` is one profile's,
 * merged field by field on top. Keys are ORIGINAL tool names, prompt names and
 * resource URIs (as for rules), so an override survives prefix changes.
 *
 * ```json
 * "overrides": {
 *   "tools": { "read_file": { "name": "read_note", "description": "...",
 *     "annotations": { "readOnlyHint": true },
 *     "arguments": { "path": { "fixed": "/notes/today.md" }, "encoding": { "default": "utf8" } } } },
 *   "promptsAsTools": { "summarize": { "name": "summarize" } },
 *   "resourcesAsTools": { "file:///notes/index.md": { "name": "notes_index" } }
 * }
 * ```
 * The catalog applies them (catalog/overrides/); the schema only checks shape:
 * a fixed or default value is checked against the tool's input schema where
 * the tool is known (when saved, and at each catalog build).
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
export type OverrideSection = keyof ServerOverrides;
