import { describe, expect, it } from 'vitest';
import {
  advertisedUri,
  parseAdvertisedUri,
  unsupportedTemplateReason,
} from '../../../../electron/core/catalog/uris.js';

describe('advertised URIs', () => {
  it('round-trips backend ID and original URI, including URIs with slashes and schemes', () => {
    const uri = advertisedUri('fs', 'file:///home/me/notes.md');
    expect(uri).toBe('mcp-proxy://fs/file:///home/me/notes.md');
    expect(parseAdvertisedUri(uri)).toEqual({ backendId: 'fs', original: 'file:///home/me/notes.md' });
  });

  it('rejects URIs that are not ours', () => {
    expect(parseAdvertisedUri('file:///x')).toBeUndefined();
    expect(parseAdvertisedUri('mcp-proxy://')).toBeUndefined();
    expect(parseAdvertisedUri('mcp-proxy:///x')).toBeUndefined();
  });
});

describe('unsupportedTemplateReason', () => {
  it.each([
    'file:///{path}',
    'repo://{owner}/{repo}',
    'search://q{?query,page}',
    'x://{+path}',
    'x://a{/segments}',
    'x://{a.b}',
  ])('accepts %s', (template) => expect(unsupportedTemplateReason(template)).toBeUndefined());

  it.each([
    ['x://{;param}', /path-style parameter operator/],
    ['x://{id:3}', /prefix modifier/],
    ['x://{list*}', /explode modifier/],
    ['x://{id', /unbalanced braces/],
    ['x://{a{b}}', /unbalanced braces/],
    ['x://{}', /empty expression/],
    ['x://{=a}', /reserved operator/],
    ['x://{a-b}', /invalid variable name/],
    ['x://plain', /no template expression/],
  ])('refuses %s', (template, reason) => expect(unsupportedTemplateReason(template)).toMatch(reason));
});
