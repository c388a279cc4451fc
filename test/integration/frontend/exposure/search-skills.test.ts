/**
 * Search mode finds skills (SEP-2640) as well as tools for a client that
 * declares the skills extension, with real SDK clients of both eras and the
 * skills fixture: the skill comes back by the URI skills/get takes, a client
 * that did not declare the extension gets tools only, and a skill its rules
 * deny is never found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { SKILLS_EXTENSION_ID, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { firstText, fixture, nodeServer, startProxy, type Harness } from '../../../helpers/harness.js';

type FoundSkill = { uri: string; name: string; server: string; description: string };
type Answer = { tools: { name: string }[]; skills?: FoundSkill[] };

const TAKES_SKILLS = { capabilities: { extensions: { [SKILLS_EXTENSION_ID]: {} } } };

async function search(client: Client, query: string): Promise<{ found: Answer; text: string }> {
  const result = await client.callTool({ name: 'search_tools', arguments: { query } });
  return { found: result.structuredContent as Answer, text: firstText(result as { content?: unknown }) };
}

describe('search mode finds skills', () => {
  let proxy: Harness;

  beforeAll(async () => {
    proxy = await startProxy({
      mcpServers: {
        docs: nodeServer(fixture('skills/server.mjs')),
        cfg: nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'merge_pdf,plain' } }),
      },
      policy: { exposure: 'search' },
    });
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it.each(['legacy', 'modern'] as const)(
    'returns matching skills beside tools to a %s client that declares the extension, readable with skills/get',
    async (era) => {
      const client = await proxy.connect(era, undefined, TAKES_SKILLS);
      const { found, text } = await search(client, 'fill in the form of a PDF document');
      expect(found.skills?.[0]).toEqual({
        uri: 'skill://docs/pdf-processing/SKILL.md',
        name: 'pdf-processing',
        server: 'docs',
        description: 'Extract text from PDF documents and fill PDF forms.',
      });
      expect(found.skills?.map((skill) => skill.name)).not.toContain('release-notes');
      expect(text).toContain('read one with skills/get by its URI');
      expect(text).toContain('- pdf-processing (docs, skill://docs/pdf-processing/SKILL.md): Extract text');
      // Tools are found as before.
      expect(found.tools.map((tool) => tool.name)).toContain('cfg__merge_pdf');
      const { skill } = await new SkillsClient(client).get(found.skills![0]!.uri);
      expect(skill.frontmatter.name).toBe('pdf-processing');
      const notes = await search(client, 'write the release notes');
      expect(notes.found.skills?.[0]?.name).toBe('release-notes');
    },
  );

  it.each(['legacy', 'modern'] as const)(
    'returns tools only to a %s client that does not declare the extension',
    async (era) => {
      const client = await proxy.connect(era);
      const { found, text } = await search(client, 'fill in the form of a PDF document');
      expect(found.skills).toBeUndefined();
      expect(text).not.toContain('skills/get');
      expect(found.tools.map((tool) => tool.name)).toContain('cfg__merge_pdf');
    },
  );

  it('never finds a skill its rules deny', async () => {
    await proxy.core.policy.setRule('docs', 'skills', 'pdf-processing', 'deny');
    try {
      const client = await proxy.connect('modern', undefined, TAKES_SKILLS);
      const { found } = await search(client, 'fill in the form of a PDF document');
      expect(found.skills?.map((skill) => skill.uri) ?? []).not.toContain('skill://docs/pdf-processing/SKILL.md');
    } finally {
      await proxy.core.policy.setRule('docs', 'skills', 'pdf-processing', 'allow');
    }
  });
});
