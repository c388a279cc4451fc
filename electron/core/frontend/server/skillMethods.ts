/**
 * The skills extension (SEP-2640, `io.modelcontextprotocol/skills`) on a
 * frontend: declared when at least one admitted backend declares it, in both
 * eras (initialize's capabilities, server/discover). `skills/list` pages
 * through the client's view of the merged skills (catalog/skills.ts), which
 * costs no round trip; `skills/get` goes to the owning backend through the
 * router. Skill files are read with resources/read, routed by their folder.
 * A change of the merged skills goes out as resources/list_changed.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { SKILLS_EXTENSION_ID } from '@modelcontextprotocol/client/ext/skills';
import { z } from 'zod';
import type { FrontendCore } from '../../api/services.js';
import type { Principal } from '../../catalog/policy/principal.js';

/** Skills per skills/list page; an entry is never split across pages. */
export const SKILLS_PAGE_SIZE = 100;

/**
 * The extension's capability entry while a backend declares it, else
 * undefined (nothing registered: no cost). `directoryRead` when every such
 * backend serves it.
 */
export function skillsCapability(core: FrontendCore): Record<string, object> | undefined {
  const catalog = core.catalog();
  if (catalog.skillBackends.size === 0) return undefined;
  const directoryRead = catalog.skillDirectoryBackends.size === catalog.skillBackends.size;
  return { [SKILLS_EXTENSION_ID]: directoryRead ? { directoryRead } : {} };
}

/**
 * Whether the client of a request declared the skills extension: in the
 * request's envelope (2026-07-28) or at initialize (2025). Search mode then
 * finds skills too (metaToolCalls.ts).
 */
export function declaresSkills(server: Server, ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities =
    (envelope?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined) ??
    server.getClientCapabilities();
  const entry = capabilities?.extensions?.[SKILLS_EXTENSION_ID];
  return typeof entry === 'object' && entry !== null;
}

const ListParams = z.object({ cursor: z.string().optional() }).loose();
const GetParams = z.object({ uri: z.string() }).loose();
const DirectoryParams = z.object({ uri: z.string(), cursor: z.string().optional() }).loose();
/** Answers carry the 2026-07-28 caching fields; our lists change with the catalog, so nothing is cached. */
const NOT_CACHED = { ttlMs: 0, cacheScope: 'private' as const };

/** A cursor is the offset of the page it starts, opaque to clients. */
function offsetOf(cursor: string | undefined, total: number): number {
  if (cursor === undefined) return 0;
  const offset = Number(Buffer.from(cursor, 'base64url').toString());
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > total)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
  return offset;
}

/** Registers skills/list and skills/get on a frontend server instance for one client profile. */
export function registerSkillMethods(
  server: Server,
  core: FrontendCore,
  client: string,
  principal?: Principal,
  directoryRead = false,
): void {
  server.setRequestHandler('skills/list', { params: ListParams }, (params) => {
    const skills = core.policy.view(client, core.catalog()).skills;
    const offset = offsetOf(params.cursor, skills.length);
    const end = offset + SKILLS_PAGE_SIZE;
    const nextCursor = end < skills.length ? Buffer.from(String(end)).toString('base64url') : undefined;
    return { skills: skills.slice(offset, end), ...(nextCursor && { nextCursor }), ...NOT_CACHED };
  });
  server.setRequestHandler('skills/get', { params: GetParams }, async (params, ctx) => ({
    skill: await core.router.getSkill(params.uri, { signal: ctx.mcpReq.signal, client, principal }),
    ...NOT_CACHED,
  }));
  // One page: the owner's pages are walked upstream (the SDK's walk, bounded by its page limit).
  if (directoryRead)
    server.setRequestHandler('resources/directory/read', { params: DirectoryParams }, async (params, ctx) => ({
      ...(await core.router.readSkillDirectory(params.uri, { signal: ctx.mcpReq.signal, client, principal })),
      ...NOT_CACHED,
    }));
}
