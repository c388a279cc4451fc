import { describe, expect, it } from 'vitest';
import { hitsIn } from '../scanHelpers.js';

describe('embedded-url rule', () => {
  it('rates a documentation link low, with the trailing full stop left out of the span', () => {
    expect(hitsIn('embedded-url', 'See https://modelcontextprotocol.io/docs.')).toEqual([
      ['low', 'https://modelcontextprotocol.io/docs'],
    ]);
  });

  it('rates request catchers, bare IPs, shorteners and data placeholders medium', () => {
    expect(hitsIn('embedded-url', 'https://webhook.site/abc')).toEqual([['medium', 'https://webhook.site/abc']]);
    expect(hitsIn('embedded-url', 'http://45.61.139.12/c')).toEqual([['medium', 'http://45.61.139.12/c']]);
    expect(hitsIn('embedded-url', 'https://bit.ly/3xYz')).toEqual([['medium', 'https://bit.ly/3xYz']]);
    expect(hitsIn('embedded-url', 'https://a.example/?q={secret}')).toEqual([
      ['medium', 'https://a.example/?q={secret}'],
    ]);
  });

  it('finds nothing in text without a URL', () => {
    expect(hitsIn('embedded-url', 'Fetches a URL and returns markdown; http is upgraded.')).toEqual([]);
  });
});
