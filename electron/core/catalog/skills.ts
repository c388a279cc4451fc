/**
 * Skills (SEP-2640, `io.modelcontextprotocol/skills`) in the merged catalog.
 * A skill is a folder of files named by the URI of its `SKILL.md`; the
 * extension asks that the folder's last segment be the skill's name, so a
 * backend's skill folder is advertised one level down, under the backend's
 * ID: `skill://pdf-processing` of backend `docs` becomes
 * `skill://docs/pdf-processing` (any other scheme keeps its path the same
 * way: `https://host/a/b` -> `skill://docs/host/a/b`). Reads are routed back
 * through a table of folders, never by splitting URIs.
 *
 * Names are what a model and a client's skills folder go by, so they are
 * unique across the catalog: a skill whose name a backend earlier in the
 * config (or earlier in the same listing) already serves is dropped, with a
 * warning naming both, as tools are.
 */
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import type { PinnedDefinition } from './definitionHash.js';

/** Where a skill comes from: its backend and its name (the catalog's ItemOrigin, structurally). */
interface ItemOrigin {
  backendId: string;
  original: string;
}

const SKILL_MD = 'SKILL.md';

/** One skill folder: where it is advertised and where it lives on its backend. */
export interface SkillFolder {
  backendId: string;
  /** The backend's own folder URI (no trailing slash). */
  original: string;
  /** The advertised folder URI. */
  advertised: string;
  /** The advertised URI of its SKILL.md (the skill's key in the catalog). */
  skill: string;
}

/** A skill admitted to the catalog: its advertised entry, where it comes from, its folder. */
export interface StagedSkill {
  exposed: Skill;
  origin: ItemOrigin;
  folder: SkillFolder;
}

/** The folder of a `.../SKILL.md` URI, or undefined when the URI does not name one. */
export function skillFolderOf(uri: string): string | undefined {
  if (!uri.endsWith(`/${SKILL_MD}`)) return undefined;
  const folder = uri.slice(0, -SKILL_MD.length - 1);
  return folder.includes('://') && !folder.endsWith('://') ? folder : undefined;
}

/** The advertised form of a backend's skill folder. */
export function advertisedSkillFolder(backendId: string, original: string): string {
  const scheme = original.indexOf('://');
  return `skill://${backendId}/${original.slice(scheme + 3)}`;
}

/** `uri` moved from folder `from` to folder `to`, or undefined when it is not inside `from`. */
export function moved(uri: string, from: string, to: string): string | undefined {
  if (uri === from) return to;
  return uri.startsWith(`${from}/`) ? to + uri.slice(from.length) : undefined;
}

/**
 * One backend's skills under advertised URIs; a skill whose entry names files
 * outside its folder, or whose name is taken, is left out with a warning.
 */
export function stageSkills(
  backendId: string,
  skills: readonly Skill[],
  taken: (name: string) => ItemOrigin | undefined,
  warnings: string[],
): StagedSkill[] {
  const staged: StagedSkill[] = [];
  const names = new Map<string, ItemOrigin>();
  for (const skill of skills) {
    const name = skill.frontmatter.name;
    const original = skillFolderOf(skill.uri);
    if (!original) {
      warnings.push(`skill "${name}" refused: its URI ${skill.uri} does not end in /${SKILL_MD}`);
      continue;
    }
    const origin: ItemOrigin = { backendId, original: name };
    const owner = names.get(name) ?? taken(name);
    if (owner) {
      warnings.push(
        `skill "${name}" of backend "${backendId}" (${skill.uri}) dropped: "${owner.backendId}" already serves a skill of that name and keeps it`,
      );
      continue;
    }
    const advertised = advertisedSkillFolder(backendId, original);
    const folder: SkillFolder = { backendId, original, advertised, skill: `${advertised}/${SKILL_MD}` };
    let resources: Skill['resources'] = 'dynamic';
    if (Array.isArray(skill.resources)) {
      const files = skill.resources.map((file) => ({ ...file, uri: moved(file.uri, original, advertised) }));
      const outside = files.findIndex((file) => file.uri === undefined);
      if (outside >= 0) {
        warnings.push(`skill "${name}" refused: ${skill.resources[outside]?.uri} is outside its folder ${original}`);
        continue;
      }
      resources = files as { uri: string; digest: string; size: number }[];
    }
    names.set(name, origin);
    staged.push({ exposed: { ...skill, uri: folder.skill, resources }, origin, folder });
  }
  return staged;
}

/**
 * Skills are pinned with their server's tools (policy/pinStore.ts), under
 * this prefix and their name: the pinned definition is the frontmatter and
 * every file's digest, so a skill whose text changes after it was approved is
 * withheld, with the diff shown, until the user approves the change.
 */
export const SKILL_PIN_PREFIX = 'skill:';

/** The pin name of a skill. */
export function skillPinName(name: string): string {
  return `${SKILL_PIN_PREFIX}${name}`;
}

/** A skill as the pin store keeps it (a tool-shaped definition: name, description, and the rest as its schema). */
export function skillPin(skill: Skill): PinnedDefinition {
  const files = Array.isArray(skill.resources)
    ? skill.resources.map(({ uri, digest, size }) => ({ uri, digest, size }))
    : skill.resources;
  return {
    name: skillPinName(skill.frontmatter.name),
    description: skill.frontmatter.description,
    inputSchema: { frontmatter: skill.frontmatter, files },
  };
}

/** A backend's entry for the skill in `folder`, under advertised URIs (files outside the folder are left out). */
export function advertisedSkill(folder: SkillFolder, skill: Skill): Skill {
  const resources = Array.isArray(skill.resources)
    ? skill.resources.flatMap((file) => {
        const uri = moved(file.uri, folder.original, folder.advertised);
        return uri === undefined ? [] : [{ ...file, uri }];
      })
    : skill.resources;
  return { ...skill, uri: folder.skill, resources };
}

/** The skill folders of a catalog, by advertised folder and by backend. */
export class SkillFolders {
  private readonly byAdvertised = new Map<string, SkillFolder>();
  private readonly byBackend = new Map<string, SkillFolder[]>();

  add(folder: SkillFolder): void {
    this.byAdvertised.set(folder.advertised, folder);
    const own = this.byBackend.get(folder.backendId) ?? [];
    own.push(folder);
    this.byBackend.set(folder.backendId, own);
  }

  /** The folder an advertised URI lies in (itself or a file below it), with the backend's own URI. */
  resolve(uri: string): { folder: SkillFolder; original: string } | undefined {
    let at = uri.length;
    while (at > 0) {
      const folder = this.byAdvertised.get(uri.slice(0, at));
      if (folder) return { folder, original: folder.original + uri.slice(at) };
      at = uri.lastIndexOf('/', at - 1);
    }
    return undefined;
  }

  /** The advertised form of a backend's own URI inside one of its skill folders. */
  advertise(backendId: string, uri: string): string | undefined {
    for (const folder of this.byBackend.get(backendId) ?? []) {
      const advertised = moved(uri, folder.original, folder.advertised);
      if (advertised !== undefined) return advertised;
    }
    return undefined;
  }
}
