import { describe, expect, it } from 'vitest';
import { analyze, CJK_KEY, terms } from '../../../../../../electron/core/frontend/exposure/search/textAnalysis.js';

describe('text analysis for tool search', () => {
  it('splits identifiers on separators and camelCase', () => {
    expect(analyze('github__create_issue')).toEqual(analyze('github create issue'));
    expect(analyze('getStockPriceByDate')).toEqual(analyze('get stock price by date'));
    expect(analyze('parseHTMLTable2 maven-deps.server')).toEqual(analyze('parse html table 2 maven deps server'));
    expect(analyze('parseStockPrice')).toHaveLength(3);
  });

  it('drops stopwords and stems, so inflections meet', () => {
    expect(analyze('the')).toEqual([]);
    expect(analyze('Parking')).toEqual(analyze('park'));
    expect(terms('find parking facilities')).toEqual(terms('finds parked facility'));
  });

  it('keeps repeats (term frequency) and drops data-sized terms', () => {
    expect(analyze('file to file')).toEqual([analyze('file')[0], analyze('file')[0]]);
    expect(analyze('x'.repeat(41))).toEqual([]);
  });

  it('indexes Chinese, Japanese and Korean runs as character bigrams', () => {
    const sentence = analyze('使用必应搜索');
    expect(sentence).toHaveLength(5);
    expect(new Set(sentence).size).toBe(5);
    expect(sentence.every((term) => term.startsWith(CJK_KEY))).toBe(true);
    expect(sentence).toContain(analyze('必应')[0]);
    expect(sentence).not.toContain(analyze('应必')[0]);
    const mixed = analyze('検索 search');
    expect(mixed).toEqual([...analyze('検索'), ...analyze('search')]);
    expect(analyze('날씨')).toHaveLength(1);
    expect(analyze('图')).toHaveLength(1);
  });
});
