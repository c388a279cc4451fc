/**
 * Text-level editing of client files: one entry in, the same entry out, and
 * every other byte unchanged, over the layouts people actually have.
 */
import { describe, expect, it } from 'vitest';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { JsonDocument } from '../../../../../../electron/core/install/clientApps/documents/jsonDocument.js';
import { TomlDocument } from '../../../../../../electron/core/install/clientApps/documents/tomlDocument.js';

const ENTRY = { url: 'http://127.0.0.1:47100/mcp', headers: { Authorization: 'Bearer t' } };

function roundTrip(text: string, comments: boolean, container = 'mcpServers'): string {
  const document = JsonDocument.parse(text, comments).document!;
  document.setEntry(container, 'switchboard', ENTRY);
  const installed = document.toString();
  const parsed = (comments ? parseJsonc(installed, [], { allowTrailingComma: true }) : JSON.parse(installed)) as Record<
    string,
    Record<string, unknown>
  >;
  expect(parsed[container]!['switchboard']).toEqual(ENTRY);
  document.removeEntry(container, 'switchboard', false);
  return installed;
}

describe('JsonDocument', () => {
  const samples: [string, string, boolean][] = [
    ['two-space JSON', '{\n  "mcpServers": {\n    "a": { "command": "x" }\n  }\n}\n', false],
    ['tabs', '{\n\t"mcpServers": {\n\t\t"a": {"command": "x"}\n\t}\n}', false],
    ['CRLF and four spaces', '{\r\n    "x": 1,\r\n    "mcpServers": {\r\n        "a": {}\r\n    }\r\n}\r\n', false],
    ['minified', '{"mcpServers":{"a":{"command":"x"}},"z":true}', false],
    ['a comment after the last entry', '{\n  "mcpServers": {\n    "a": 1 // keep me\n  }\n}\n', true],
    ['trailing commas', '{\n  "mcpServers": {\n    "a": 1,\n  },\n}\n', true],
    ['block comment inside', '{\n  /* top */\n  "mcpServers": {\n    /* first */ "a": 1\n  }\n}\n', true],
    ['empty map', '{ "mcpServers": {} }\n', false],
  ];
  for (const [name, text, comments] of samples) {
    it(`${name}: install then uninstall restores the bytes, and nothing else moves`, () => {
      const installed = roundTrip(text, comments);
      const document = JsonDocument.parse(installed, comments).document!;
      document.removeEntry('mcpServers', 'switchboard', false);
      expect(document.toString()).toBe(text);
      expect(installed.includes('\r\n')).toBe(text.includes('\r\n'));
    });
  }

  it('creates the container (and the file content) when absent, and removes it when asked', () => {
    for (const text of ['', '{}', '{\n  "theme": "dark"\n}\n']) {
      const document = JsonDocument.parse(text, true).document!;
      document.setEntry('context_servers', 'switchboard', ENTRY);
      expect(JSON.parse(document.toString()).context_servers.switchboard).toEqual(ENTRY);
      document.removeEntry('context_servers', 'switchboard', true);
      expect(document.toString()).toBe(text === '' ? '{}\n' : text);
    }
  });

  it('replaces an existing entry in place', () => {
    const text = '{\n  "mcpServers": {\n    "switchboard": { "url": "old" },\n    "b": 2\n  }\n}\n';
    const document = JsonDocument.parse(text, false).document!;
    document.setEntry('mcpServers', 'switchboard', ENTRY);
    expect(Object.keys(JSON.parse(document.toString()).mcpServers)).toEqual(['switchboard', 'b']);
  });

  it('reports where a file is malformed, and refuses comments in strict JSON', () => {
    expect(JsonDocument.parse('{\n  "a": 1,\n}', false).problem).toMatchObject({ line: 3, column: 1 });
    expect(JsonDocument.parse('// hi\n{}', false).problem?.message).toContain('not valid JSON');
    expect(JsonDocument.parse('// hi\n{}', true).document).toBeDefined();
    expect(JsonDocument.parse('[1]', false).problem?.message).toBe('the top level is not an object');
  });
});

describe('TomlDocument', () => {
  const value = { url: 'http://127.0.0.1:47100/mcp', http_headers: { Authorization: 'Bearer "q"' } };

  it('appends one table and removes it again, byte for byte', () => {
    for (const text of [
      '',
      'model = "o3"\n',
      '# only a comment\n\n[a]\nb = 1\n',
      'x = 1\r\n[mcp_servers.a]\r\ncommand = "y"\r\n',
    ]) {
      const document = TomlDocument.parse(text).document!;
      document.setEntry('mcp_servers', 'switchboard', value);
      expect(
        (parseToml(document.toString()) as Record<string, Record<string, unknown>>)['mcp_servers']!['switchboard'],
      ).toEqual(value);
      document.removeEntry('mcp_servers', 'switchboard', false);
      expect(document.toString()).toBe(text);
    }
  });

  it('leaves the tables after ours and their comments alone, and ignores headers inside multi-line strings', () => {
    const text =
      'a = """\n[mcp_servers.switchboard]\n"""\n[mcp_servers.switchboard]\nurl = "x"\n\n# about b\n[b]\nc = 1\n';
    const document = TomlDocument.parse(text).document!;
    document.removeEntry('mcp_servers', 'switchboard', false);
    expect(document.toString()).toBe('a = """\n[mcp_servers.switchboard]\n"""\n\n# about b\n[b]\nc = 1\n');
  });

  it('refuses an edit that would make the file invalid, and entries not written as tables', () => {
    const inline = TomlDocument.parse('mcp_servers = { a = { command = "x" } }\n').document!;
    expect(() => inline.setEntry('mcp_servers', 'switchboard', value)).toThrow(/would make the file invalid/);
    const dotted = TomlDocument.parse('[mcp_servers]\nswitchboard = { url = "x" }\n').document!;
    expect(() => dotted.removeEntry('mcp_servers', 'switchboard', false)).toThrow(/by hand/);
  });

  it('reports the line and column of a syntax error', () => {
    expect(TomlDocument.parse('a = 1\nb = "unterminated\n').problem).toMatchObject({ line: 2 });
  });
});
