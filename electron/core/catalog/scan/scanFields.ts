/**
 * The texts of one catalog item that the scan reads, each with the dotted
 * path of its field: names, titles, descriptions, the descriptions, titles,
 * defaults, enums and examples in its input and output schemas (nested
 * properties and array items too), annotations, prompt arguments, resource
 * URIs. The model sees all of these, so a poisoned definition can hide in any
 * of them. Walking is bounded (depth and count) whatever a server sends.
 */
import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/client';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import type { ScanItemKind } from '../../../../shared/model/scanViews.js';

/** One text the rules read. */
export interface ScanField {
  kind: ScanItemKind;
  /** The item's own (raw) name, or a resource's URI when it has no name. */
  item: string;
  /** Dotted path in the definition: `description`, `inputSchema.properties.path.description`. */
  field: string;
  text: string;
  /** Whether the text is a name (an item's name, a prompt argument's name): homoglyph rules read names. */
  isName: boolean;
  /** What the item says it is: its name, title and description (a rule asks whether a parameter fits the tool). */
  summary: string;
}

/** Deepest schema nesting walked; deeper parts are not scanned. */
const MAX_SCHEMA_DEPTH = 8;
/** Most texts taken from one item. */
const MAX_FIELDS_PER_ITEM = 400;

type Emit = (field: string, text: unknown, isName?: boolean) => void;

/** The texts of a tool. */
export function toolFields(tool: Tool): ScanField[] {
  return collect('tool', tool.name, summaryOf(tool), (emit) => {
    emit('name', tool.name, true);
    emit('title', tool.title, true);
    emit('description', tool.description);
    walkSchema(tool.inputSchema, 'inputSchema', emit, 0);
    walkSchema(tool.outputSchema, 'outputSchema', emit, 0);
    walkStrings(tool.annotations, 'annotations', emit, 0);
  });
}

/** The texts of a prompt. */
export function promptFields(prompt: Prompt): ScanField[] {
  return collect('prompt', prompt.name, summaryOf(prompt), (emit) => {
    emit('name', prompt.name, true);
    emit('title', prompt.title, true);
    emit('description', prompt.description);
    for (const [index, argument] of (prompt.arguments ?? []).entries()) {
      emit(`arguments.${index}.name`, argument.name, true);
      emit(`arguments.${index}.title`, (argument as { title?: unknown }).title, true);
      emit(`arguments.${index}.description`, argument.description);
    }
  });
}

/** The texts of a resource. */
export function resourceFields(resource: Resource): ScanField[] {
  return collect('resource', resource.name || resource.uri, summaryOf(resource), (emit) => {
    emit('name', resource.name, true);
    emit('title', resource.title, true);
    emit('description', resource.description);
    emit('uri', resource.uri);
    walkStrings(resource.annotations, 'annotations', emit, 0);
  });
}

/** The texts of a resource template. */
export function templateFields(template: ResourceTemplateType): ScanField[] {
  return collect('resourceTemplate', template.name || template.uriTemplate, summaryOf(template), (emit) => {
    emit('name', template.name, true);
    emit('title', template.title, true);
    emit('description', template.description);
    emit('uriTemplate', template.uriTemplate);
    walkStrings(template.annotations, 'annotations', emit, 0);
  });
}

/**
 * The texts of a skill (SEP-2640): its frontmatter (name, description, every
 * other string in it) and the text of each of its files the listing read
 * (`files.<path in the skill>`), SKILL.md's body included.
 */
export function skillFields(skill: Skill, texts: Record<string, string>): ScanField[] {
  const { frontmatter } = skill;
  const summary = `${frontmatter.name} ${frontmatter.description}`;
  const folder = skill.uri.slice(0, skill.uri.lastIndexOf('/') + 1);
  return collect('skill', frontmatter.name, summary, (emit) => {
    emit('frontmatter.name', frontmatter.name, true);
    emit('frontmatter.description', frontmatter.description);
    const { name: _name, description: _description, ...rest } = frontmatter;
    walkStrings(rest, 'frontmatter', emit, 0);
    if (!Array.isArray(skill.resources)) return;
    for (const file of skill.resources) {
      const path = file.uri.startsWith(folder) ? file.uri.slice(folder.length) : file.uri;
      emit(`files.${path}`, texts[file.uri]);
    }
  });
}

function collect(kind: ScanItemKind, item: string, summary: string, walk: (emit: Emit) => void): ScanField[] {
  const fields: ScanField[] = [];
  walk((field, text, isName = false) => {
    if (typeof text !== 'string' || text === '' || fields.length >= MAX_FIELDS_PER_ITEM) return;
    fields.push({ kind, item, field, text, isName, summary });
  });
  return fields;
}

/** An item's name, title and description, joined. */
function summaryOf(item: { name?: unknown; title?: unknown; description?: unknown }): string {
  return [item.name, item.title, item.description].filter((part) => typeof part === 'string').join(' ');
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON Schema's texts: title, description, string defaults, enums, examples, consts; then its sub-schemas. */
function walkSchema(schema: unknown, path: string, emit: Emit, depth: number): void {
  if (!isRecord(schema) || depth > MAX_SCHEMA_DEPTH) return;
  emit(`${path}.title`, schema['title']);
  emit(`${path}.description`, schema['description']);
  walkStrings(schema['default'], `${path}.default`, emit, depth);
  walkStrings(schema['const'], `${path}.const`, emit, depth);
  walkStrings(schema['enum'], `${path}.enum`, emit, depth);
  walkStrings(schema['examples'], `${path}.examples`, emit, depth);
  const properties = schema['properties'];
  if (isRecord(properties)) {
    for (const [key, sub] of Object.entries(properties)) {
      emit(`${path}.properties.${key}`, key, true);
      walkSchema(sub, `${path}.properties.${key}`, emit, depth + 1);
    }
  }
  for (const key of ['items', 'additionalProperties', 'not'] as const) {
    walkSchema(schema[key], `${path}.${key}`, emit, depth + 1);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((sub, index) => walkSchema(sub, `${path}.${key}.${index}`, emit, depth + 1));
  }
  for (const key of ['$defs', 'definitions'] as const) {
    const defs = schema[key];
    if (isRecord(defs)) {
      for (const [name, sub] of Object.entries(defs)) walkSchema(sub, `${path}.${key}.${name}`, emit, depth + 1);
    }
  }
}

/** Every string in a plain value (defaults, enums, annotations), by path. */
function walkStrings(value: unknown, path: string, emit: Emit, depth: number): void {
  if (depth > MAX_SCHEMA_DEPTH) return;
  if (typeof value === 'string') emit(path, value);
  else if (Array.isArray(value))
    value.forEach((entry, index) => walkStrings(entry, `${path}.${index}`, emit, depth + 1));
  else if (isRecord(value)) {
    for (const [key, entry] of Object.entries(value)) walkStrings(entry, `${path}.${key}`, emit, depth + 1);
  }
}
