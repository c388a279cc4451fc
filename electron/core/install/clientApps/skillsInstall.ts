/**
 * Skills (SEP-2640) written into the folders of the clients that read skills
 * from disk: Claude Code's `~/.claude/skills/<name>/` first. What is written
 * is what the client's profile may use: the skills are listed and read through
 * Switchboard's own endpoint with the profile's token, so its rules, the
 * quarantine and held changes apply, and every file is checked by the SDK
 * against the size and digest its entry carries before it is written.
 *
 * Each folder we write holds a marker file (`.mcp-switchboard.json`: the skill's
 * URI and its files' digests); a folder without it is the user's own and is
 * never touched. Installing again syncs: our folders of skills no longer
 * offered are removed, changed ones rewritten. Uninstall removes only ours.
 */
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient, type Skill } from '@modelcontextprotocol/client/ext/skills';
import type { ClientId, PlatformEnv } from './clientAppTypes.js';
import type { ClientsContext } from './install.js';

/** The marker file in each skill folder we write. */
export const SKILL_MARKER = '.mcp-switchboard.json';

/** Where each client that reads skills from disk keeps its personal skills (documented places only). */
const SKILL_FOLDERS: Partial<Record<ClientId, (platform: PlatformEnv) => string>> = {
  'claude-code': (platform) => join(platform.home, '.claude', 'skills'),
};

/** A skill name usable as a folder name (the Agent Skills naming rules). */
const SKILL_NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** What an install did. */
export interface SkillsInstallOutcome {
  folder: string;
  installed: string[];
  removed: string[];
  skipped: { name: string; reason: string }[];
}

/** The skills folder of a client, or an error naming the clients that have one. */
export function skillsFolderOf(client: ClientId, platform: PlatformEnv): string {
  const folder = SKILL_FOLDERS[client];
  if (!folder) {
    throw new Error(
      `${client} reads no skills from disk; skills install supports: ${Object.keys(SKILL_FOLDERS).join(', ')}`,
    );
  }
  return folder(platform);
}

/** The skill folders under `folder` that carry our marker. */
async function ours(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const marked = await Promise.all(
    entries
      .filter((entry) => entry.isDirectory())
      .map(async (entry) =>
        (await readFile(join(folder, entry.name, SKILL_MARKER)).then(
          () => true,
          () => false,
        ))
          ? entry.name
          : undefined,
      ),
  );
  return marked.filter((name): name is string => name !== undefined);
}

/** A file's path inside its skill folder, or undefined when its URI is not below the folder (or climbs out). */
function pathInSkill(skill: Skill, uri: string): string | undefined {
  const root = skill.uri.slice(0, skill.uri.lastIndexOf('/') + 1);
  if (!uri.startsWith(root)) return undefined;
  const path = decodeURIComponent(uri.slice(root.length));
  const parts = path.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..' || part.includes('\\'))) return undefined;
  return parts.join(sep);
}

/** Reads every file of `skill` through `reader` (verified) and writes the folder under `staging`. */
async function writeSkill(reader: SkillsClient, skill: Skill, staging: string, signal?: AbortSignal): Promise<void> {
  if (!Array.isArray(skill.resources)) throw new Error('its files are "dynamic": there is no list to install');
  const files: { path: string; digest: string }[] = [];
  for (const file of skill.resources) {
    const path = pathInSkill(skill, file.uri);
    if (path === undefined) throw new Error(`${file.uri} is outside the skill's folder`);
    const read = await reader.read(skill, file.uri, { ...(signal && { signal }) });
    await mkdir(dirname(join(staging, path)), { recursive: true });
    await writeFile(join(staging, path), read.bytes, { mode: 0o600 });
    files.push({ path: path.split(sep).join('/'), digest: file.digest });
  }
  const marker = { installedBy: 'mcp-switchboard', skill: skill.uri, files };
  await writeFile(join(staging, SKILL_MARKER), `${JSON.stringify(marker, null, 2)}\n`, { mode: 0o600 });
}

/**
 * Writes the skills `client`'s profile may use into its skills folder, and
 * removes ours that are no longer offered. A folder of the same name that is
 * not ours is left alone (skipped, saying so).
 */
export async function installSkills(
  ctx: ClientsContext,
  client: ClientId,
  signal?: AbortSignal,
): Promise<SkillsInstallOutcome> {
  const folder = skillsFolderOf(client, ctx.platform);
  const token = await ctx.tokens.tokenFor(client);
  const mcp = new Client({ name: 'mcp-switchboard-skills', version: '1.0.0' });
  const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
  await mcp.connect(new StreamableHTTPClientTransport(new URL(ctx.url), { requestInit: { headers } }), {
    ...(signal && { signal }),
  });
  try {
    const reader = new SkillsClient(mcp);
    const { skills } = await reader.list(undefined, { ...(signal && { signal }) });
    const outcome: SkillsInstallOutcome = { folder, installed: [], removed: [], skipped: [] };
    const mine = new Set(await ours(folder));
    await mkdir(folder, { recursive: true });
    for (const skill of skills) {
      const name = skill.frontmatter.name;
      if (!SKILL_NAME.test(name)) {
        outcome.skipped.push({ name, reason: 'not a valid skill name for a folder' });
        continue;
      }
      const target = join(folder, name);
      const exists = await readdir(target).then(
        () => true,
        () => false,
      );
      if (exists && !mine.has(name)) {
        outcome.skipped.push({ name, reason: `${target} is not ours (no ${SKILL_MARKER}): left as it is` });
        continue;
      }
      const staging = join(folder, `.${name}.mcp-switchboard-${process.pid}`);
      await rm(staging, { recursive: true, force: true });
      try {
        await writeSkill(reader, skill, staging, signal);
      } catch (error) {
        await rm(staging, { recursive: true, force: true });
        outcome.skipped.push({ name, reason: error instanceof Error ? error.message : String(error) });
        continue;
      }
      await rm(target, { recursive: true, force: true });
      await rename(staging, target);
      outcome.installed.push(name);
    }
    const offered = new Set(skills.map((skill) => skill.frontmatter.name));
    for (const name of mine) {
      if (offered.has(name)) continue;
      await rm(join(folder, name), { recursive: true, force: true });
      outcome.removed.push(name);
    }
    return outcome;
  } finally {
    await mcp.close();
  }
}

/** Removes the skill folders we wrote into `client`'s skills folder (only those with our marker). */
export async function uninstallSkills(
  platform: PlatformEnv,
  client: ClientId,
): Promise<{ folder: string; removed: string[] }> {
  const folder = skillsFolderOf(client, platform);
  const removed = await ours(folder);
  for (const name of removed) await rm(join(folder, name), { recursive: true, force: true });
  return { folder, removed };
}
