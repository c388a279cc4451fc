/**
 * PLACEHOLDER until the poisoning scan lands (another branch writes the real
 * engine at this path with this exact signature): it scans nothing and
 * reports every server clean, so the quarantine and review code around it
 * can be built and tested now. Do not add rules here.
 */
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/server';
import type { ScanReport } from '../../../../shared/model/scanViews.js';

/** One server's definitions, as the scan reads them. */
export interface ScanInput {
  server: string;
  prefix: string;
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
}

/** Scans each server's definitions (placeholder: no findings). */
export function scanCatalog(inputs: ScanInput[], now: Date = new Date()): ScanReport[] {
  return inputs.map((input) => ({
    server: input.server,
    scannedAt: now.toISOString(),
    items: input.tools.length + input.prompts.length + input.resources.length + input.resourceTemplates.length,
    findings: [],
  }));
}
