/**
 * Skills (SEP-2640) through Switchboard, with real SDK clients of both eras
 * and the skills fixture (the SDK's own skills extension over a folder): the
 * extension is declared while a backend declares it, skills/list merges the
 * backends' skills under namespaced URIs whose files read and verify against
 * the digests the entries carry, skills/get goes to the owner, a name two
 * backends serve stays with the one earlier in the config, the policy denies
 * a skill by name, a backend's change reaches clients as
 * resources/list_changed, and a server's own endpoint declares no skills.
 */
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { SKILLS_EXTENSION_ID, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { fixture, nodeServer, startProxy, tempDir } from '../../helpers/harness.js';

const SKILLS = fixture('skills/server.mjs');
const OTHER = fixture('skills/other');

const declared = (client: Client): unknown =>
  (client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[
    SKILLS_EXTENSION_ID
  ];

describe('skills through the switchboard', () => {
  it.each(['legacy', 'modern'] as const)(
    'merges, gets and reads skills for a %s client, every file verified against its digest',
    async (era) => {
      const proxy = await startProxy({ mcpServers: { docs: nodeServer(SKILLS) } });
      try {
        const client = await proxy.connect(era);
        expect(declared(client)).toEqual({ directoryRead: true });
        const skills = new SkillsClient(client);
        const { skills: listed } = await skills.list();
        expect(listed.map((skill) => skill.uri)).toEqual([
          'skill://docs/pdf-processing/SKILL.md',
          'skill://docs/release-notes/SKILL.md',
        ]);
        const pdf = listed[0]!;
        expect(pdf.resources).toEqual([
          expect.objectContaining({ uri: 'skill://docs/pdf-processing/SKILL.md', size: 190 }),
          expect.objectContaining({ uri: 'skill://docs/pdf-processing/references/FORMS.md' }),
        ]);
        // The SDK's host side checks size, digest and (for SKILL.md) the frontmatter against the entry.
        const manifest = await skills.read(pdf);
        expect(manifest).toMatchObject({ verified: true, frontmatter: { name: 'pdf-processing' } });
        expect(manifest.body).toContain('Read `references/FORMS.md`');
        const forms = await skills.read(pdf, 'references/FORMS.md');
        expect(forms.verified).toBe(true);
        expect(forms.text).toContain('leave signature fields empty');
        const got = await skills.get('skill://docs/release-notes/SKILL.md');
        expect(got.skill).toEqual(listed[1]);
        await expect(skills.get('skill://docs/nothing-here/SKILL.md')).rejects.toMatchObject({ code: -32602 });
        // A skill's folders are listed through the owner (the extension's directoryRead), under advertised URIs.
        const { resources: children } = await skills.readDirectory('skill://docs/pdf-processing');
        expect(children.map((child) => [child.uri, child.mimeType])).toEqual(
          expect.arrayContaining([
            ['skill://docs/pdf-processing/SKILL.md', 'text/markdown'],
            ['skill://docs/pdf-processing/references', 'inode/directory'],
          ]),
        );
        await expect(skills.readDirectory('skill://docs/nowhere')).rejects.toMatchObject({ code: -32602 });
        // The SKILL.md resources the backend lists are advertised under the skill's URI too.
        const { resources } = await client.listResources();
        expect(resources.map((resource) => resource.uri)).toContain('skill://docs/pdf-processing/SKILL.md');
      } finally {
        await proxy.close();
      }
    },
  );

  // A server's own endpoint speaks the server's own URIs; skills are the merged catalog's (docs/skills.md).
  it.each(['legacy', 'modern'] as const)(
    'declares no skills on a server’s own endpoint (/servers/<id>/mcp) for a %s client, while /mcp does',
    async (era) => {
      const proxy = await startProxy({ mcpServers: { docs: nodeServer(SKILLS) } });
      try {
        const own = new Client(
          { name: `own-${era}`, version: '1.0.0' },
          era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
        );
        await own.connect(
          new StreamableHTTPClientTransport(new URL(proxy.url.replace(/\/mcp$/, '/servers/docs/mcp')), {
            requestInit: { headers: { Authorization: `Bearer ${proxy.token}` } },
          }),
        );
        try {
          expect(declared(own)).toBeUndefined();
          expect((await own.listTools()).tools.map((tool) => tool.name)).toEqual(['reload']);
          // Unknown there: -32601 in 2025; a 2026-07-28 request for an unknown method is refused over HTTP.
          await expect(own.request({ method: 'skills/list', params: {} }, z.object({}).loose())).rejects.toMatchObject({
            code: era === 'legacy' ? -32601 : 'CLIENT_HTTP_NOT_IMPLEMENTED',
          });
        } finally {
          await own.close();
        }
        expect(declared(await proxy.connect(era))).toEqual({ directoryRead: true });
      } finally {
        await proxy.close();
      }
    },
  );

  it('declares no skills extension while no backend declares it', async () => {
    const proxy = await startProxy({ mcpServers: { plain: nodeServer(fixture('configurable.mjs')) } });
    try {
      const client = await proxy.connect('legacy');
      expect(declared(client)).toBeUndefined();
      await expect(client.request({ method: 'skills/list', params: {} }, z.object({}).loose())).rejects.toMatchObject({
        code: -32601,
      });
    } finally {
      await proxy.close();
    }
  });

  it('keeps a skill name with the backend earlier in the config, with a warning naming both', async () => {
    const proxy = await startProxy({
      mcpServers: { docs: nodeServer(SKILLS), other: nodeServer(SKILLS, [OTHER]) },
    });
    try {
      const other = proxy.core.health().find((backend) => backend.id === 'other');
      expect(other?.warnings).toEqual([
        expect.stringMatching(/skill "pdf-processing" of backend "other".*"docs" already serves a skill of that name/),
      ]);
      const client = await proxy.connect('modern');
      const { skills } = await new SkillsClient(client).list();
      expect(skills.map((skill) => skill.uri).sort()).toEqual([
        'skill://docs/pdf-processing/SKILL.md',
        'skill://docs/release-notes/SKILL.md',
        'skill://other/changelog/SKILL.md',
      ]);
      // The dropped skill's files are not reachable under the loser's namespace either.
      await expect(client.readResource({ uri: 'skill://other/pdf-processing/SKILL.md' })).rejects.toMatchObject({
        code: -32602,
      });
    } finally {
      await proxy.close();
    }
  });

  it('hides a skill its rule denies, from the list, skills/get and reads of its files', async () => {
    const proxy = await startProxy({ mcpServers: { docs: nodeServer(SKILLS) } });
    try {
      await proxy.core.policy.setRule('docs', 'skills', 'pdf-processing', 'deny');
      const client = await proxy.connect('legacy');
      const skills = new SkillsClient(client);
      const { skills: listed } = await skills.list();
      expect(listed.map((skill) => skill.frontmatter.name)).toEqual(['release-notes']);
      await expect(skills.get('skill://docs/pdf-processing/SKILL.md')).rejects.toMatchObject({ code: -32602 });
      await expect(
        client.readResource({ uri: 'skill://docs/pdf-processing/references/FORMS.md' }),
      ).rejects.toMatchObject({ code: -32602 });
    } finally {
      await proxy.close();
    }
  });

  it("tells connected clients when a backend's skills change (resources/list_changed)", async () => {
    const dir = await tempDir();
    try {
      const root = join(dir.path, 'library');
      await cp(fixture('skills/library'), root, { recursive: true });
      const proxy = await startProxy({ mcpServers: { docs: nodeServer(SKILLS, [root]) } });
      try {
        const client = await proxy.connect('legacy');
        const changed = new Promise<void>((resolve) =>
          client.setNotificationHandler('notifications/resources/list_changed', () => resolve()),
        );
        await mkdir(join(root, 'triage'));
        await writeFile(
          join(root, 'triage', 'SKILL.md'),
          '---\nname: triage\ndescription: Sort new issues by area.\n---\n\n# Triage\n',
        );
        await client.callTool({ name: 'docs__reload', arguments: {} });
        await changed;
        const { skills } = await new SkillsClient(client).list();
        expect(skills.map((skill) => skill.frontmatter.name)).toContain('triage');
      } finally {
        await proxy.close();
      }
    } finally {
      await dir.cleanup();
    }
  });
});
