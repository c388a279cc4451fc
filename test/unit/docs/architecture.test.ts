/**
 * docs/architecture.md walks a tools/call through the code file by file and
 * function by function. A move or a rename that the page does not follow
 * would send the next engineer to a file or a function that is not there:
 * every `.ts` path the page names must exist, and every name written right
 * after a path (`path` `Name` `Class.method`) must be defined in that file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const PAGE = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

/** A path in backticks, then the names in backticks that follow it with only white space between. */
const PATH_AND_NAMES = /`([\w.-]+\/[\w./-]+\.tsx?)`((?:\s+`[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)?`)*)/g;

interface Reference {
  path: string;
  names: string[];
}

function referencesIn(text: string): Reference[] {
  return [...text.matchAll(PATH_AND_NAMES)].map((match) => ({
    path: match[1]!,
    names: [...(match[2] ?? '').matchAll(/`([^`]+)`/g)].map((name) => name[1]!),
  }));
}

const escape = (name: string): string => name.replace(/\$/g, '\\$');

/** Whether `source` defines `name`: a class, interface, type, function or constant, or `Holder.member`. */
export function defines(source: string, name: string): boolean {
  const [holder, member] = name.includes('.') ? name.split('.') : [undefined, name];
  const declaration = (id: string) =>
    new RegExp(
      `(?:class|interface|type|enum|function\\*?|const|let)\\s+${escape(id)}\\b|^\\s*(?:export\\s+)?(?:async\\s+)?function\\s+${escape(id)}\\b`,
      'm',
    ).test(source);
  if (holder === undefined) return declaration(member!);
  if (!declaration(holder)) return false;
  const modifiers = '(?:(?:public|private|protected|static|readonly|async|get|set|override)\\s+)*';
  return new RegExp(`^\\s+${modifiers}${escape(member!)}\\s*(?:[(<]|=|:|\\?)`, 'm').test(source);
}

/** The numbered steps of the walk, each with its first path. */
function walkSteps(): Reference[] {
  const start = PAGE.indexOf('## A tools/call, step by step');
  const end = PAGE.indexOf('\n## ', start + 1);
  const section = PAGE.slice(start, end);
  return [...section.matchAll(/^\d+\. (`[^\n]+(?:\n {3,}[^\n]+)*)/gm)].map((step) => referencesIn(step[1]!)[0]!);
}

describe('docs/architecture.md', () => {
  it('names only files that exist', () => {
    const missing = referencesIn(PAGE)
      .map((reference) => reference.path)
      .filter((path) => !existsSync(join(ROOT, path)));
    expect(missing).toEqual([]);
  });

  it('names only functions, classes and members that the named file defines', () => {
    const undefinedNames = referencesIn(PAGE).flatMap(({ path, names }) => {
      if (!existsSync(join(ROOT, path))) return [];
      const source = readFileSync(join(ROOT, path), 'utf8');
      return names.filter((name) => !defines(source, name)).map((name) => `${path} ${name}`);
    });
    expect(undefinedNames).toEqual([]);
  });

  it('walks a tools/call from the HTTP endpoint down to the server process, naming a function at each step', () => {
    const steps = walkSteps();
    expect(steps.length).toBeGreaterThanOrEqual(15);
    for (const step of steps) expect(step.names.length, step.path).toBeGreaterThan(0);
    const wings = steps.map((step) => step.path.replace(/^electron\/core\//, '').split('/')[0]);
    expect(steps[0]!.path).toBe('electron/core/frontend/http/httpEndpoint.ts');
    expect(steps.at(-1)!.path).toMatch(/^electron\/core\/backends\/process\//);
    // Along the request's path: the client-facing side first, the backends last.
    expect(wings.indexOf('backends')).toBeGreaterThan(wings.lastIndexOf('switchboard'));
    expect(steps.some((step) => step.path.includes('/backends/transport/'))).toBe(true);
  });

  it('tells a definition from a mention', () => {
    const source = 'export class Router {\n  async callTool(params) {}\n}\nconst x = Router.route;\n';
    expect(defines(source, 'Router.callTool')).toBe(true);
    expect(defines(source, 'Router.route')).toBe(false);
    expect(defines(source, 'Nowhere')).toBe(false);
  });
});
