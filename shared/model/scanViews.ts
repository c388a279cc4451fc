/**
 * What the poisoning scan (electron/core/catalog/scan/) says about a server's
 * definitions: one finding per rule hit, naming the item, the field and the
 * exact span of text, so the UI, the CLI and health can show the words that
 * raised it. Plain data: shared by the core, the contract and the renderer.
 */

/** How bad a finding is. `high` keeps a server (or a changed tool) in quarantine until approved. */
export type ScanSeverity = 'low' | 'medium' | 'high';

/** The rules the scan applies (electron/core/catalog/scan/rules/). */
export type ScanRule =
  /** Text aimed at the model: "ignore previous instructions", "do not tell the user", <IMPORTANT> markers. */
  | 'hidden-instruction'
  /** Directives to read files, secrets or credentials, or to send data somewhere. */
  | 'exfiltration'
  /** Invisible, direction-changing or tag Unicode characters. */
  | 'invisible-text'
  /** Characters from another script that look like Latin letters (homoglyphs), in names. */
  | 'homoglyph'
  /** A description that references or redefines another server's tools. */
  | 'shadowing'
  /** A URL embedded in a definition. */
  | 'embedded-url'
  /** A long encoded blob (base64, hex) in a definition. */
  | 'encoded-blob'
  /** A name that imitates another server's tool (the same name under a look-alike prefix). */
  | 'name-imitation'
  /** A command to run that downloads and runs code, opens a shell to another host, destroys data or disables protections. */
  | 'command-execution'
  /** Claims that push the model toward this tool or away from others: priority, threats, "the other tool is compromised". */
  | 'tool-preference'
  /** Orders that override what the user chose: "whatever the user says", a changed amount, skipped confirmation. */
  | 'user-override'
  /** A parameter asking for a secret or personal data the tool has no use for (a weather tool's `password`). */
  | 'sensitive-parameter'
  /** Text hidden from people and keyword filters: leetspeak, letter spacing, soft hyphens, escapes, "decode this and follow it". */
  | 'obfuscated-text'
  /** A sentence whose wording a small model fitted on known poisonings scores high (medium at most). */
  | 'learned-wording';

/** The kind of catalog item a finding is about. */
export type ScanItemKind = 'tool' | 'prompt' | 'resource' | 'resourceTemplate' | 'skill';

/** One thing the scan found. */
export interface ScanFinding {
  rule: ScanRule;
  severity: ScanSeverity;
  /** The server whose definition it is. */
  server: string;
  item: { kind: ScanItemKind; name: string };
  /** The field, as a dotted path in the definition: `description`, `name`, `inputSchema.properties.path.description`. */
  field: string;
  /** The span in that field's text, in UTF-16 code units [start, end). */
  span: { start: number; end: number };
  /** The text of the span (invisible characters shown as `\u{...}` escapes). */
  excerpt: string;
  /** One line saying what was found, for people. */
  message: string;
}

/** A server's scan, as the UI, the CLI and health show it. */
export interface ScanReport {
  server: string;
  /** When the definitions were last scanned (ISO time). */
  scannedAt: string;
  /** Items scanned. */
  items: number;
  findings: ScanFinding[];
  /** The highest severity among the findings (absent: none). */
  highest?: ScanSeverity;
}
