import { describe, expect, it } from 'vitest';
import { findingsOf, hitsIn, server, tool } from '../scanHelpers.js';

describe('homoglyph rule', () => {
  it('flags a name that mixes Latin with Cyrillic look-alikes high, spanning the word (up to `_`)', () => {
    const [finding] = findingsOf('homoglyph', server('s', [tool('d\u0435lete_repo', 'Deletes.')]));
    expect(finding).toMatchObject({
      severity: 'high',
      field: 'name',
      span: { start: 0, end: 6 },
      excerpt: 'd\u0435lete',
    });
    expect(finding!.message).toContain('U+0435');
    expect(finding!.message).toContain('reads as "delete"');
  });

  it('flags fullwidth Latin in a name high, and a name made only of Cyrillic look-alikes medium', () => {
    expect(findingsOf('homoglyph', server('s', [tool('ｇｉｔｈｕｂ', 'x')]))[0]?.severity).toBe('high');
    expect(findingsOf('homoglyph', server('s', [tool('\u0440\u0430\u0443', 'x')]))[0]).toMatchObject({
      severity: 'medium',
      message: expect.stringContaining('reads as "pay"') as unknown,
    });
  });

  it('flags a mixed word in a description as medium', () => {
    expect(hitsIn('homoglyph', 'Please іgnore the rest.')).toEqual([['medium', 'іgnore']]);
  });

  it('leaves accented Latin, whole words of other scripts and CJK alone', () => {
    expect(findingsOf('homoglyph', server('s', [tool('café_menu', 'Меню кафе. 搜索文档 ΑΘΗΝΑ')]))).toEqual([]);
  });
});
