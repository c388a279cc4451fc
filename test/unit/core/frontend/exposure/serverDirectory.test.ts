import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import {
  DIRECTORY_MAX_CHARS,
  serverDirectory,
} from '../../../../../electron/core/frontend/exposure/serverDirectory.js';
import { LIVEMCPBENCH_TOOLS } from '../../../../helpers/scanCorpus.js';
import { readFileSync } from 'node:fs';

describe('serverDirectory', () => {
  it('names each server with its tool count and first tool names, one line each', () => {
    const text = serverDirectory([
      { id: 'github', tools: ['create_issue', 'search_repositories'] },
      { id: 'empty-ish', tools: ['ping'] },
    ]);
    expect(text.split('\n').slice(1)).toEqual([
      '- github (2): create_issue, search_repositories',
      '- empty-ish (1): ping',
    ]);
    expect(serverDirectory([])).toBe('');
  });

  it('cuts a long line at a whole name', () => {
    const tools = Array.from({ length: 40 }, (_, i) => `tool_number_${i}`);
    const [, line] = serverDirectory([{ id: 'big', tools }]).split('\n');
    expect(line!.length).toBeLessThanOrEqual(90);
    expect(line).toMatch(/^- big \(40\): tool_number_0, .*tool_number_\d+, …$/);
  });

  it('stays within about 1,500 tokens for the 70 LiveMCPBench servers, and within its budget for 1,000', () => {
    const catalog = JSON.parse(readFileSync(LIVEMCPBENCH_TOOLS, 'utf8')) as {
      servers: Record<string, { tools: { name: string }[] }>;
    };
    const servers = Object.entries(catalog.servers).map(([id, s]) => ({ id, tools: s.tools.map((t) => t.name) }));
    const text = serverDirectory(servers);
    expect(text.split('\n')).toHaveLength(servers.length + 1);
    expect(countTokens(text)).toBeLessThanOrEqual(1500);
    const many = Array.from({ length: 1000 }, (_, i) => ({ id: `server-${i}`, tools: ['a_tool', 'another_tool'] }));
    const bounded = serverDirectory(many);
    expect(bounded.length).toBeLessThanOrEqual(DIRECTORY_MAX_CHARS + 100);
    expect(bounded).toMatch(/…and \d+ more servers\.$/);
  });
});
