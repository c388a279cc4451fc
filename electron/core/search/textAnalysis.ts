/**
 * How tool text becomes search terms, the same for documents and queries:
 * identifiers split on `_ - . /` and camelCase (`getStockPrice` -> get, stock,
 * price), lower-cased, English stopwords dropped, Porter-stemmed (`parking`
 * and `park` meet). Text in Chinese, Japanese or Korean has no spaces between
 * words, so each run of such characters is indexed as overlapping character
 * bigrams (a single character alone), which lets a query find it at all.
 */
import { stemmer } from 'stemmer';
import { eng } from 'stopword';

const STOPWORDS = new Set<string>(eng);

/** Han, Hiragana, Katakana, Hangul (and their compatibility and extension blocks). */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]/u;
const CJK_RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]+/gu;

/**
 * Memo of words already split and terms already processed: a catalog's
 * vocabulary is small next to its text, and stemming dominates indexing time.
 * Cleared when it gets large, so odd input cannot grow it without end.
 */
const splitMemo = new Map<string, string[]>();
const termMemo = new Map<string, string | null>();
const MEMO_LIMIT = 50_000;

function memo<T>(cache: Map<string, T>, key: string, compute: (key: string) => T): T {
  const hit = cache.get(key);
  if (hit !== undefined || cache.has(key)) return hit as T;
  if (cache.size >= MEMO_LIMIT) cache.clear();
  const value = compute(key);
  cache.set(key, value);
  return value;
}

/** Splits camelCase and letter/digit boundaries: `parseHTMLTable2` -> parse HTML Table 2. */
function splitCamel(word: string): string[] {
  if (/^[a-z]+$/.test(word)) return [word];
  return memo(splitMemo, word, splitCamelUncached);
}

function splitCamelUncached(word: string): string[] {
  return word
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Za-z])/g, '$1 $2')
    .split(' ');
}

/** Overlapping bigrams of a run of CJK characters (the run itself when it is one character). */
function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/** Splits text into raw terms (before stopwords and stemming). */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  const cjkFree = CJK.test(text)
    ? text.replace(CJK_RUN, (run) => {
        terms.push(...bigrams(run));
        return ' ';
      })
    : text;
  for (const word of cjkFree.split(/[^\p{L}\p{N}]+/u)) {
    if (word === '') continue;
    for (const part of splitCamel(word)) if (part !== '') terms.push(part);
  }
  return terms;
}

/** Normalizes one term: lower case, stopwords dropped, English words stemmed. */
export function processTerm(term: string): string | null {
  return memo(termMemo, term, processTermUncached);
}

/**
 * Longer terms are not words but data (base64, hashes, minified code): they
 * never match and, with prefix and fuzzy matching, cost the most to search.
 */
const MAX_TERM_LENGTH = 40;

function processTermUncached(term: string): string | null {
  if (term.length > MAX_TERM_LENGTH) return null;
  const lower = term.toLowerCase();
  if (STOPWORDS.has(lower)) return null;
  if (CJK.test(lower) || !/^[a-z]+$/.test(lower)) return lower;
  return lower.length > 3 ? stemmer(lower) : lower;
}

/** The distinct processed terms of a text (used to weigh query parts). */
export function terms(text: string): string[] {
  const out = new Set<string>();
  for (const raw of tokenize(text)) {
    const term = processTerm(raw);
    if (term) out.add(term);
  }
  return [...out];
}
