/**
 * The words the review shows, cut from the views: a finding's span in its
 * field's text (context either side, cut marked, a surrogate pair never split,
 * invisible characters escaped, the excerpt when the text does not hold the
 * span); a diff's two sides; the scan's summary and its tone.
 */
import { describe, expect, it } from 'vitest';
import { diffSides } from '../../../../../renderer/src/features/reviews/diffSides.js';
import { spanInText } from '../../../../../renderer/src/features/reviews/findingSpan.js';
import { scanTone, scanWords } from '../../../../../renderer/src/features/reviews/reviewWords.js';
import { definitionDiff } from '../../../../../shared/model/definitionDiff.js';

describe('a finding span in its text', () => {
  it('marks exactly the span, with context either side and the cuts said', () => {
    const text = `${'a'.repeat(200)}SECRET${'b'.repeat(200)}`;
    const shown = spanInText(text, { span: { start: 200, end: 206 } }, 10);
    expect(shown).toEqual({
      before: 'a'.repeat(10),
      match: 'SECRET',
      after: 'b'.repeat(10),
      cutBefore: true,
      cutAfter: true,
    });
    expect(spanInText('xSECRETy', { span: { start: 1, end: 7 } })).toMatchObject({ cutBefore: false, cutAfter: false });
  });

  it('escapes invisible characters and never splits a surrogate pair at a cut', () => {
    const tag = '\u{E0041}'; // a tag character: two UTF-16 units
    const text = `${tag}go\u202Ehere`;
    const shown = spanInText(text, { span: { start: 2, end: 5 } }, 1);
    expect(shown).toMatchObject({ before: '\\u{E0041}', match: 'go\\u{202E}', after: 'h', cutBefore: false });
  });

  it('is undefined when the text is missing or does not hold the span', () => {
    expect(spanInText(undefined, { span: { start: 0, end: 1 } })).toBeUndefined();
    expect(spanInText('ab', { span: { start: 1, end: 5 } })).toBeUndefined();
  });
});

describe("a field diff's two sides", () => {
  it('keeps unchanged and removed parts on the old side, unchanged and added on the new', () => {
    const [diff] = definitionDiff({ description: 'read the file' }, { description: 'read the \u200Bsecret file' });
    const { before, after } = diffSides(diff!);
    expect(before.map((part) => part.value).join('')).toBe('read the file');
    expect(after.map((part) => part.value).join('')).toBe('read the \\u{200B}secret file');
    expect(after.some((part) => part.added && part.value.includes('secret'))).toBe(true);
    expect(before.some((part) => part.added)).toBe(false);
  });
});

describe("the scan's summary", () => {
  it('is plain without findings or with only low ones; an alarm only for high', () => {
    expect(scanWords({ findings: 0 })).toBe('Scan: no findings');
    expect(scanWords({ findings: 1, highest: 'low' })).toBe('Scan: 1 finding, highest low');
    expect([
      scanTone({}),
      scanTone({ highest: 'low' }),
      scanTone({ highest: 'medium' }),
      scanTone({ highest: 'high' }),
    ]).toEqual(['idle', 'idle', 'warn', 'bad']);
  });
});
