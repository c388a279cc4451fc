/**
 * Token counts of tool definitions (the encoding is loaded on the first
 * count): one tool's cost is the encoding's count of its JSON, a list's is
 * the envelope plus each tool and its separator.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { toolListTokens, toolTokens } from '../../../../electron/core/catalog/toolTokens.js';

const read = { name: 'read_file', description: 'Read a file from disk', inputSchema: { type: 'object' } };
const write = { name: 'write_file', description: 'Write a file to disk, creating it', inputSchema: { type: 'object' } };

describe('toolTokens', () => {
  it("counts a definition's JSON in the o200k encoding", () => {
    expect(toolTokens(read)).toBe(countTokens(JSON.stringify(read)));
    expect(toolTokens(write)).toBeGreaterThan(toolTokens(read));
  });

  it('counts a list as its envelope plus each tool and a separator', () => {
    const envelope = countTokens('{"tools":[]}');
    expect(toolListTokens([])).toBe(envelope);
    expect(toolListTokens([read, write])).toBe(envelope + toolTokens(read) + toolTokens(write) + 2);
  });
});
