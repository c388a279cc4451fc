import { describe, expect, it } from 'vitest';
import { processTerm, terms, tokenize } from '../../../electron/core/search/textAnalysis.js';

describe('text analysis for tool search', () => {
  it('splits identifiers on separators and camelCase', () => {
    expect(tokenize('github__create_issue')).toEqual(['github', 'create', 'issue']);
    expect(tokenize('getStockPriceByDate')).toEqual(['get', 'Stock', 'Price', 'By', 'Date']);
    expect(tokenize('parseHTMLTable2 maven-deps.server')).toEqual([
      'parse',
      'HTML',
      'Table',
      '2',
      'maven',
      'deps',
      'server',
    ]);
  });

  it('drops stopwords and stems, so inflections meet', () => {
    expect(processTerm('the')).toBeNull();
    expect(processTerm('Parking')).toBe(processTerm('park'));
    expect(terms('find parking facilities')).toEqual(terms('finds parked facility'));
  });

  it('indexes Chinese, Japanese and Korean runs as character bigrams', () => {
    expect(tokenize('使用必应搜索')).toEqual(['使用', '用必', '必应', '应搜', '搜索']);
    expect(tokenize('検索 search')).toEqual(['検索', 'search']);
    expect(tokenize('날씨')).toEqual(['날씨']);
    expect(tokenize('图')).toEqual(['图']);
  });
});
