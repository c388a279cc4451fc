/**
 * RFC 6570 level 3 expansion (the subset the core routes), checked against
 * the RFC's own examples (section 1.2 and 3.2) for each operator.
 */
import { describe, expect, it } from 'vitest';
import { expandUriTemplate, uriTemplateVariables } from '../../../../shared/uriTemplate.js';
import { expandTemplate } from '../../../../renderer/src/features/catalog/TryResource.js';

// The RFC's variables.
const vars = {
  var: 'value',
  hello: 'Hello World!',
  path: '/foo/bar',
  empty: '',
  x: '1024',
  y: '768',
};

describe('expandUriTemplate', () => {
  it.each([
    // Level 1: simple string expansion, reserved characters encoded.
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
    ['{path}', '%2Ffoo%2Fbar'],
    // Level 2: reserved (+) and fragment (#) expansion keep reserved characters.
    ['{+var}', 'value'],
    ['{+hello}', 'Hello%20World!'],
    ['{+path}/here', '/foo/bar/here'],
    ['here?ref={+path}', 'here?ref=/foo/bar'],
    ['X{#var}', 'X#value'],
    ['X{#hello}', 'X#Hello%20World!'],
    // Level 3: several variables, and the . / ; ? & operators.
    ['map?{x,y}', 'map?1024,768'],
    ['{x,hello,y}', '1024,Hello%20World%21,768'],
    ['{+x,hello,y}', '1024,Hello%20World!,768'],
    ['{+path,x}/here', '/foo/bar,1024/here'],
    ['{#x,hello,y}', '#1024,Hello%20World!,768'],
    ['{#path,x}/here', '#/foo/bar,1024/here'],
    ['X{.var}', 'X.value'],
    ['X{.x,y}', 'X.1024.768'],
    ['{/var}', '/value'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{;x,y}', ';x=1024;y=768'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{?x,y}', '?x=1024&y=768'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{&x,y,empty}', '&x=1024&y=768&empty='],
    // Undefined variables are left out, with their operator when none is defined.
    ['{?undef}', ''],
    ['{/undef}', ''],
    ['{?x,undef}', '?x=1024'],
    ['X{.undef}', 'X'],
  ])('%s → %s', (template, expected) => {
    expect(expandUriTemplate(template, vars)).toBe(expected);
  });

  it('percent-encodes UTF-8 and keeps %XX triplets only in reserved expansion', () => {
    expect(expandUriTemplate('{q}', { q: 'café ☕' })).toBe('caf%C3%A9%20%E2%98%95');
    expect(expandUriTemplate('{q}', { q: 'a%20b' })).toBe('a%2520b');
    expect(expandUriTemplate('{+q}', { q: 'a%20b' })).toBe('a%20b');
    expect(expandUriTemplate('{q}', { q: "(it's)*" })).toBe('%28it%27s%29%2A');
  });

  it('lists variable names once each, without operators or modifiers', () => {
    expect(uriTemplateVariables('mcp-proxy://fs/{+path}{?q,lang}{&q}{#frag}{x:3}{list*}')).toEqual([
      'path',
      'q',
      'lang',
      'frag',
      'x',
      'list',
    ]);
  });
});

describe('TryResource expandTemplate', () => {
  it('uses the operators: a query stays a query, a reserved path keeps its slashes', () => {
    expect(expandTemplate('mcp-proxy://fs/search{?q}', { q: 'val' })).toBe('mcp-proxy://fs/search?q=val');
    expect(expandTemplate('mcp-proxy://fs/file/{+path}', { path: 'a/b c.txt' })).toBe(
      'mcp-proxy://fs/file/a/b%20c.txt',
    );
    expect(expandTemplate('mcp-proxy://fs/item/{id}', { id: 'a/b' })).toBe('mcp-proxy://fs/item/a%2Fb');
  });

  it('leaves out a field not filled in', () => {
    expect(expandTemplate('mcp-proxy://fs/search{?q,page}', { q: 'x', page: '' })).toBe('mcp-proxy://fs/search?q=x');
  });
});
