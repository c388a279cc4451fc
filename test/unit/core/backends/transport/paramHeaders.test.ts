/**
 * SEP-2243 parameter headers: which schema properties declare one, how a
 * header value is encoded and decoded (literal or `=?base64?…?=`), which
 * headers a call sends, and when a tools/call's headers and arguments disagree. The cases of the conformance suite's
 * http-custom-header-server-validation scenario are here, plus the nested,
 * numeric and boolean ones it does not send.
 */
import { describe, expect, it } from 'vitest';
import {
  decodeParamValue,
  encodeParamValue,
  paramHeaderMismatch,
  paramHeadersOf,
  paramHeaderValues,
  paramText,
} from '../../../../../electron/core/backends/transport/paramHeaders.js';

const SCHEMA = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    count: { type: 'integer', 'x-mcp-header': 'Count' },
    dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
    target: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
    tags: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Tag' } },
    odd: { type: 'string', 'x-mcp-header': 'has space' },
    plain: { type: 'string' },
  },
};

const base64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
const headersOf =
  (sent: Record<string, string>) =>
  (name: string): string | undefined =>
    Object.entries(sent).find(([key]) => key.toLowerCase() === name)?.[1];
const PARAMS = paramHeadersOf(SCHEMA);
const check = (args: unknown, sent: Record<string, string>) => paramHeaderMismatch(PARAMS, args, headersOf(sent));

describe('paramHeadersOf', () => {
  it('finds declarations along properties chains only, with valid token names', () => {
    expect(PARAMS).toEqual([
      { path: ['region'], name: 'Region', type: 'string' },
      { path: ['count'], name: 'Count', type: 'integer' },
      { path: ['dryRun'], name: 'Dry-Run', type: 'boolean' },
      { path: ['target', 'zone'], name: 'Zone', type: 'string' },
    ]);
  });

  it('finds none in a schema without declarations, or in no schema at all', () => {
    expect(paramHeadersOf({ type: 'object', properties: { a: { type: 'string' } } })).toEqual([]);
    expect(paramHeadersOf(undefined)).toEqual([]);
    expect(paramHeadersOf({ type: 'object', 'x-mcp-header': 'Root' })).toEqual([]);
  });
});

describe('decodeParamValue', () => {
  it('decodes a Base64 sentinel as UTF-8', () => {
    expect(decodeParamValue('=?base64?SGVsbG8=?=')).toBe('Hello');
    expect(decodeParamValue(base64('Zürich 東京'))).toBe('Zürich 東京');
    expect(decodeParamValue(base64(' padded '))).toBe(' padded ');
  });

  it('refuses bad padding, characters outside the alphabet, and bytes that are not UTF-8', () => {
    expect(decodeParamValue('=?base64?SGVsbG8?=')).toBeUndefined();
    expect(decodeParamValue('=?base64?SGVs!!!bG8=?=')).toBeUndefined();
    expect(decodeParamValue('=?base64?SGVsbG8-?=')).toBeUndefined();
    expect(decodeParamValue(`=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`)).toBeUndefined();
  });

  it('takes a value missing either end of the sentinel literally', () => {
    expect(decodeParamValue('SGVsbG8=')).toBe('SGVsbG8=');
    expect(decodeParamValue('=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8=');
    expect(decodeParamValue('SGVsbG8=?=')).toBe('SGVsbG8=?=');
  });
});

describe('paramText', () => {
  it('writes primitives as the spec says and nothing else', () => {
    expect(paramText('x')).toBe('x');
    expect(paramText(true)).toBe('true');
    expect(paramText(false)).toBe('false');
    expect(paramText(42)).toBe('42');
    expect(paramText({ a: 1 })).toBeUndefined();
    expect(paramText(null)).toBeUndefined();
  });
});

describe('paramHeaderMismatch', () => {
  it('accepts headers that agree, literal or encoded, and header names in any case', () => {
    const args = { region: 'Hello', count: 3, dryRun: false, target: { zone: 'Zürich' } };
    const sent = { 'mcp-param-region': 'Hello', 'MCP-PARAM-COUNT': '3', 'Mcp-Param-Dry-Run': 'false' };
    expect(check(args, { ...sent, 'Mcp-Param-Zone': base64('Zürich') })).toBeUndefined();
    expect(check(args, { ...sent, 'Mcp-Param-Region': base64('Hello'), 'Mcp-Param-Zone': base64('Zürich') })).toBe(
      undefined,
    );
  });

  it('refuses a missing header when the argument is there', () => {
    expect(check({ region: 'test-value' }, {})).toEqual({
      header: 'Mcp-Param-Region',
      message: 'the Mcp-Param-Region header is missing, but the arguments carry region',
    });
    expect(check({ target: { zone: 'a' } }, {})?.header).toBe('Mcp-Param-Zone');
  });

  it('expects no header for an absent or null argument, and ignores one sent anyway', () => {
    expect(check({}, {})).toBeUndefined();
    expect(check({ region: null }, { 'Mcp-Param-Region': 'anything' })).toBeUndefined();
  });

  it('refuses a badly encoded value and one that disagrees, without echoing either value', () => {
    const bad = check({ region: 'Hello' }, { 'Mcp-Param-Region': '=?base64?SGVsbG8?=' });
    expect(bad).toMatchObject({ header: 'Mcp-Param-Region', message: expect.stringMatching(/not valid Base64/) });
    const wrong = check({ region: 'secret-a' }, { 'Mcp-Param-Region': 'secret-b' });
    expect(wrong?.message).toBe('the Mcp-Param-Region header does not match the argument region');
    expect(JSON.stringify([bad, wrong])).not.toMatch(/secret|SGVsbG8/);
  });

  it('compares values case-sensitively, booleans as written, numbers as numbers', () => {
    expect(check({ region: 'eu' }, { 'Mcp-Param-Region': 'EU' })?.header).toBe('Mcp-Param-Region');
    expect(check({ dryRun: true }, { 'Mcp-Param-Dry-Run': 'True' })?.header).toBe('Mcp-Param-Dry-Run');
    expect(check({ count: 42 }, { 'Mcp-Param-Count': '42.0' })).toBeUndefined();
    expect(check({ count: 42 }, { 'Mcp-Param-Count': '43' })?.header).toBe('Mcp-Param-Count');
  });

  it('takes a Base64 string sent without the sentinel as the literal text', () => {
    expect(check({ region: 'SGVsbG8=' }, { 'Mcp-Param-Region': 'SGVsbG8=' })).toBeUndefined();
    expect(check({ region: 'Hello' }, { 'Mcp-Param-Region': 'SGVsbG8=' })?.header).toBe('Mcp-Param-Region');
  });
});

describe('encodeParamValue', () => {
  it('sends plain visible ASCII as is', () => {
    expect(encodeParamValue('eu-west-1')).toBe('eu-west-1');
    expect(encodeParamValue('a b')).toBe('a b');
  });

  it('Base64-encodes what a literal header could not carry faithfully, and decoding gives the text back', () => {
    for (const text of ['Zürich', ' edge ', '', 'line\nbreak', '=?base64?SGk=?=', '東京']) {
      const encoded = encodeParamValue(text);
      expect(encoded).toMatch(/^=\?base64\?[A-Za-z0-9+/=]*\?=$/);
      expect(decodeParamValue(encoded)).toBe(text);
    }
  });
});

describe('paramHeaderValues', () => {
  it('writes one header per present argument, encoded, which the check then accepts', () => {
    const args = { region: 'Zürich', count: 3, dryRun: true, target: { zone: 'z1' }, plain: 'x' };
    const headers = paramHeaderValues(PARAMS, args);
    expect(headers).toEqual({
      'Mcp-Param-Region': base64('Zürich'),
      'Mcp-Param-Count': '3',
      'Mcp-Param-Dry-Run': 'true',
      'Mcp-Param-Zone': 'z1',
    });
    expect(check(args, headers)).toBeUndefined();
  });

  it('writes none for absent or null arguments', () => {
    expect(paramHeaderValues(PARAMS, { region: null })).toEqual({});
    expect(paramHeaderValues(PARAMS, undefined)).toEqual({});
  });
});
