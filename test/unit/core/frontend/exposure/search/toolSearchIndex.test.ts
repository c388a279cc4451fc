import type { Tool } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  ToolSearchIndex,
  type IndexableTool,
} from '../../../../../../electron/core/frontend/exposure/search/toolSearchIndex.js';

function tool(
  backendId: string,
  original: string,
  description: string,
  properties: NonNullable<Tool['inputSchema']['properties']> = {},
): IndexableTool {
  const definition: Tool = {
    name: `${backendId}__${original}`,
    description,
    inputSchema: { type: 'object', properties },
  };
  return { tool: definition, origin: { backendId, original } };
}

const catalog = [
  tool('github', 'create_issue', 'Open a new issue in a repository', { title: { type: 'string' } }),
  tool('github', 'search_code', 'Search source code across repositories'),
  tool('osm', 'find_parking_facilities', 'Locate car parks near a coordinate', { radius: { description: 'metres' } }),
  tool('osm', 'geocode_address', 'Turn a street address into latitude and longitude'),
  tool('wordcloud', 'generate_word_cloud', 'Render a word cloud image from text'),
  tool('pdf', 'markdownToPdf', 'Convert markdown to a PDF document'),
  tool('bing-cn', 'bing_search', '使用必应搜索指定的关键词，并返回搜索结果列表'),
];

describe('ToolSearchIndex', () => {
  it('finds a tool by a paraphrase of its description', () => {
    const index = new ToolSearchIndex();
    index.sync(catalog);
    expect(index.search('where can I park my car', 3)[0]?.name).toBe('osm__find_parking_facilities');
    expect(index.search('report a new issue against my repo', 3)[0]?.name).toBe('github__create_issue');
  });

  it('matches camelCase name parts, prefixes and typos', () => {
    const index = new ToolSearchIndex();
    index.sync(catalog);
    expect(index.search('pdf markdown', 1)[0]?.name).toBe('pdf__markdownToPdf');
    expect(index.search('geoco', 1)[0]?.name).toBe('osm__geocode_address');
    expect(index.search('wordclod generat', 1)[0]?.name).toBe('wordcloud__generate_word_cloud');
  });

  it('looks a word up as a typo only while no indexed tool has it', () => {
    const index = new ToolSearchIndex();
    const painter = tool('art', 'painter', 'Paints a picture');
    const pointer = tool('ui', 'pointer', 'Moves the mouse');
    index.sync([painter, pointer]);
    expect(index.search('pointer', 5).map((m) => m.name)).toEqual(['ui__pointer']);
    expect(index.search('pointr', 5).map((m) => m.name)).toContain('ui__pointer');
    index.sync([painter]);
    expect(index.search('pointer', 5).map((m) => m.name)).toEqual(['art__painter']);
  });

  it('finds Chinese descriptions by a Chinese query', () => {
    const index = new ToolSearchIndex();
    index.sync(catalog);
    expect(index.search('必应搜索', 1)[0]?.name).toBe('bing-cn__bing_search');
  });

  it('covers each need of a multi-part task near the top', () => {
    const index = new ToolSearchIndex();
    index.sync(catalog);
    const names = index
      .search('Geocode the Forbidden City, then find parking nearby, and make a PDF report with a word cloud', 5)
      .map((m) => m.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'osm__geocode_address',
        'osm__find_parking_facilities',
        'pdf__markdownToPdf',
        'wordcloud__generate_word_cloud',
      ]),
    );
  });

  it('returns only the tools the caller may use', () => {
    const index = new ToolSearchIndex();
    index.sync(catalog);
    const names = index.search('github repository', 10, (name) => name !== 'github__create_issue').map((m) => m.name);
    expect(names).toContain('github__search_code');
    expect(names).not.toContain('github__create_issue');
  });

  it('re-indexes only what changed', () => {
    const index = new ToolSearchIndex();
    expect(index.sync(catalog)).toBe(catalog.length);
    expect(index.sync(catalog)).toBe(0);
    const changed = [...catalog.slice(1), tool('github', 'create_issue', 'Report a defect as a ticket')];
    expect(index.sync(changed)).toBe(1);
    expect(index.search('ticket defect', 1)[0]?.name).toBe('github__create_issue');
    expect(index.sync(changed.slice(1))).toBe(1);
    expect(index.size).toBe(catalog.length - 1);
    expect(index.search('source code', 5).map((m) => m.name)).not.toContain('github__search_code');
  });
});
