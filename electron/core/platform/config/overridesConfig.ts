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
export {
  AnnotationOverrideSchema,
  ArgumentOverrideSchema,
  ItemAsToolSchema,
  OVERRIDE_SECTIONS,
  ServerOverridesSchema,
  ToolOverrideSchema,
} from '../../../../shared/model/overrides.js';
export type {
  AnnotationOverride,
  ArgumentOverride,
  ItemAsTool,
  OverrideSection,
  ServerOverrides,
  ToolOverride,
} from '../../../../shared/model/overrides.js';
