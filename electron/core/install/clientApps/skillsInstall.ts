/**
 * Skills (SEP-2640) written into the folders of the clients that read skills
 * from disk, each client's documented personal folder (docs/skills.md cites
 * where each is documented). What is written
 * is what the client's profile may use: the skills are listed and read through
 * Switchboard's own endpoint with the profile's token, so its rules, the
 * quarantine and held changes apply, and every file is checked by the SDK
 * against the size and digest its entry carries before it is written.
 *
 * Each folder we write holds a marker file (`.mcp-switchboard.json`: the skill's
 * URI and its files' digests); a folder without it is the user's own and is
 * never touched. Installing again syncs: our folders of skills no longer
 * offered are removed (unless held for review: the reviewed copy stays until
 * the change is approved), changed ones rewritten, unchanged ones (the same
 * URI and file digests as the marker) left without reading a byte. Each
 * install is recorded in our state directory (`skills-installs.json`), so the
 * running Switchboard keeps the clients installed into in sync (skillsSync.ts);
 * uninstall removes only ours and the record.
 */
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { fileWriter } from '../../platform/config/atomicWriter.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient, type Skill } from '@modelcontextprotocol/client/ext/skills';
import { SKILLS_CLIENTS as SKILLS_CLIENT_VIEWS, type SkillsClientId } from '../../../../shared/model/skillsViews.js';
import { ClientErrorCode, type PlatformEnv } from './clientAppTypes.js';
import { clientError } from './clientFiles.js';
import type { ClientsContext } from './install.js';

/** The marker file in each skill folder we write. */
export const SKILL_MARKER = '.mcp-switchboard.json';

export type { SkillsClientId };

/** The clients that read skills from disk, with a documented personal skills folder. */
export const SKILLS_CLIENTS: readonly SkillsClientId[] = SKILLS_CLIENT_VIEWS.map((client) => client.id);

/** Where each client keeps its personal skills (its own documentation: docs/skills.md links each). */
const SKILL_FOLDERS: Record<SkillsClientId, readonly string[]> = {
  'claude-code': ['.claude', 'skills'],
  // Codex's user scope; Cursor, Copilot, Gemini CLI and opencode read this folder too.
  codex: ['.agents', 'skills'],
  cursor: ['.cursor', 'skills'],
  // Copilot's personal folder (agent mode in VS Code, Copilot CLI).
  vscode: ['.copilot', 'skills'],
  'gemini-cli': ['.gemini', 'skills'],
  opencode: ['.config', 'opencode', 'skills'],
};

/** The file in our state directory that names the clients skills were installed into (for the sync). */
export const SKILLS_RECORD = 'skills-installs.json';

/** A skill name usable as a folder name (the Agent Skills naming rules). */
const SKILL_NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** What an install did. */
export interface SkillsInstallOutcome {
  folder: string;
  /** Written (new or changed; previewed: would be). */
  installed: string[];
  /** The files of each written skill, by its name (paths inside its folder). */
  files: Record<string, string[]>;
  /** Ours and already as offered (the same URI and file digests): not read again. */
  unchanged: string[];
  removed: string[];
  /** Ours, no longer offered but kept (a change held for review, its server down): the copy installed stays. */
  kept: { name: string; reason: string }[];
  skipped: { name: string; reason: string }[];
}

/** What an install may be told by the core it runs in. */
export interface SkillsInstallOptions {
  signal?: AbortSignal;
  /**
   * Why one of ours that is no longer offered is kept, not removed (its change held for
   * review, its server down), or undefined: removed. Given the skill's name and URI (its marker's).
   */
  keep?: (skill: { name: string; uri: string }) => string | undefined;
  /** Only find out what would be written and removed: nothing is read, written, removed or recorded. */
  preview?: boolean;
}

/** Whether `client` is one with a skills folder. */
export function isSkillsClient(client: string): client is SkillsClientId {
  return (SKILLS_CLIENTS as readonly string[]).includes(client);
}

/** `client` as one with a skills folder, or an error naming those that have one. */
function skillsClient(client: string): SkillsClientId {
  if (isSkillsClient(client)) return client;
  throw clientError(
    ClientErrorCode.UnknownClient,
    `${client} reads no skills from disk; skills install supports: ${SKILLS_CLIENTS.join(', ')}`,
    { client },
  );
}

/** The skills folder of a client, or an error naming the clients that have one. */
export function skillsFolderOf(client: string, platform: PlatformEnv): string {
  return join(platform.home, ...SKILL_FOLDERS[skillsClient(client)]);
}

/** The clients skills were installed into (from our state directory; none when the record is missing or unreadable). */
export async function installedSkillClients(stateDir: string): Promise<SkillsClientId[]> {
  const text = await readFile(join(stateDir, SKILLS_RECORD), 'utf8').catch(() => undefined);
  if (text === undefined) return [];
  try {
    const clients = (JSON.parse(text) as { clients?: unknown }).clients;
    return Array.isArray(clients) ? clients.filter((c): c is SkillsClientId => isSkillsClient(String(c))) : [];
  } catch {
    return [];
  }
}

/** Adds `client` to (or removes it from) the record of installs. */
async function record(stateDir: string, client: SkillsClientId, installed: boolean): Promise<void> {
  const clients = new Set(await installedSkillClients(stateDir));
  if (clients.has(client) === installed) return;
  if (installed) clients.add(client);
  else clients.delete(client);
  await fileWriter.write(join(stateDir, SKILLS_RECORD), `${JSON.stringify({ clients: [...clients] }, null, 2)}\n`);
}

/** The skill URI our marker in `target` names ('' when unreadable). */
async function markedUri(target: string): Promise<string> {
  const text = await readFile(join(target, SKILL_MARKER), 'utf8').catch(() => '{}');
  try {
    const uri = (JSON.parse(text) as { skill?: unknown }).skill;
    return typeof uri === 'string' ? uri : '';
  } catch {
    return '';
  }
}

/** Whether our folder `target` already holds `skill` as offered: the marker's URI and file digests match its entry. */
async function unchanged(target: string, skill: Skill): Promise<boolean> {
  if (!Array.isArray(skill.resources)) return false;
  const text = await readFile(join(target, SKILL_MARKER), 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  try {
    const marker = JSON.parse(text) as { skill?: unknown; files?: { path?: unknown; digest?: unknown }[] };
    const key = (path: unknown, digest: unknown) => `${String(path)} ${String(digest)}`;
    const offered = skill.resources.map((file) => key(pathInSkill(skill, file.uri)?.split(sep).join('/'), file.digest));
    const held = Array.isArray(marker.files) ? marker.files.map((file) => key(file.path, file.digest)) : [];
    return marker.skill === skill.uri && JSON.stringify(offered.sort()) === JSON.stringify(held.sort());
  } catch {
    return false;
  }
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

/** The paths of `skill`'s files inside its folder ('/'-separated), or why it cannot be installed. */
function filesOf(skill: Skill): string[] | string {
  if (!Array.isArray(skill.resources)) return 'its files are "dynamic": there is no list to install';
  const paths: string[] = [];
  for (const file of skill.resources) {
    const path = pathInSkill(skill, file.uri);
    if (path === undefined) return `${file.uri} is outside the skill's folder`;
    paths.push(path.split(sep).join('/'));
  }
  return paths;
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
  client: string,
  options: SkillsInstallOptions = {},
): Promise<SkillsInstallOutcome> {
  const { signal } = options;
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
    const outcome: SkillsInstallOutcome = {
      folder,
      installed: [],
      files: {},
      unchanged: [],
      removed: [],
      kept: [],
      skipped: [],
    };
    const mine = new Set(await ours(folder));
    if (!options.preview) await mkdir(folder, { recursive: true });
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
      if (exists && (await unchanged(target, skill))) {
        outcome.unchanged.push(name);
        continue;
      }
      const files = filesOf(skill);
      if (typeof files === 'string') {
        outcome.skipped.push({ name, reason: files });
        continue;
      }
      if (options.preview) {
        outcome.installed.push(name);
        outcome.files[name] = files;
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
      outcome.files[name] = files;
    }
    const offered = new Set(skills.map((skill) => skill.frontmatter.name));
    for (const name of mine) {
      if (offered.has(name)) continue;
      const reason = options.keep?.({ name, uri: await markedUri(join(folder, name)) });
      if (reason !== undefined) {
        outcome.kept.push({ name, reason });
        continue;
      }
      if (!options.preview) await rm(join(folder, name), { recursive: true, force: true });
      outcome.removed.push(name);
    }
    if (!options.preview) await record(ctx.stateDir, skillsClient(client), true);
    return outcome;
  } finally {
    await mcp.close();
  }
}

/** Removes the skill folders we wrote into `client`'s skills folder (only those with our marker). */
export async function uninstallSkills(
  ctx: Pick<ClientsContext, 'platform' | 'stateDir'>,
  client: string,
): Promise<{ folder: string; removed: string[] }> {
  const folder = skillsFolderOf(client, ctx.platform);
  const removed = await ours(folder);
  for (const name of removed) await rm(join(folder, name), { recursive: true, force: true });
  await record(ctx.stateDir, skillsClient(client), false);
  return { folder, removed };
}
