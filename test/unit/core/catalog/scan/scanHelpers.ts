/**
 * Building scan inputs for the scan's unit tests: a server from tool
 * definitions in a line, and running one rule over one server beside others.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { ScanFinding, ScanRule } from '../../../../../shared/model/scanViews.js';
import { scanCatalog, type ScanInput } from '../../../../../electron/core/catalog/scan/scanCatalog.js';

/** A tool with a description and optional input properties. */
export function tool(name: string, description?: string, properties: Record<string, object> = {}): Tool {
  const inputSchema = { type: 'object', properties } as Tool['inputSchema'];
  return { name, ...(description === undefined ? {} : { description }), inputSchema };
}

/** A server of tools. */
export function server(id: string, tools: Tool[], prefix = id): ScanInput {
  return { server: id, prefix, tools, prompts: [], resources: [], resourceTemplates: [] };
}

/** The findings of `rule` on the first server, scanned beside `others`. */
export function findingsOf(rule: ScanRule, first: ScanInput, ...others: ScanInput[]): ScanFinding[] {
  return scanCatalog([first, ...others])[0]!.findings.filter((finding) => finding.rule === rule);
}

/** The findings of `rule` on one tool's description, as [severity, excerpt] pairs. */
export function hitsIn(rule: ScanRule, description: string, ...others: ScanInput[]): [string, string][] {
  return findingsOf(rule, server('s', [tool('t', description)]), ...others).map((f) => [f.severity, f.excerpt]);
}
