/**
 * How tool text becomes search terms, the same for documents and queries:
 * identifiers split on `_ - . /` and camelCase (`getStockPrice` -> get, stock,
 * price), lower-cased, English stopwords dropped, Porter-stemmed (`parking`
 * and `park` meet). Text in Chinese, Japanese or Korean has no spaces between
 * words, so each run of such characters is indexed as overlapping character
 * bigrams (a single character alone), which lets a query find it at all.
 */
import { stemmer } from 'stemmer';
import { lazyRequire } from '../../../platform/env/lazyRequire.js';

/** English stopwords, loaded with the first search index (the package holds every language's lists). */
const stopwordLists = lazyRequire<{ eng: string[] }>('stopword');
let stopwords: Set<string> | undefined;
const isStopword = (word: string): boolean => (stopwords ??= new Set(stopwordLists().eng)).has(word);

/** Han, Hiragana, Katakana, Hangul (and their compatibility and extension blocks). */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]/u;
const CJK_RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]+/gu;

/** What separates words: anything but letters and digits. */
const NOT_WORD = /[^\p{L}\p{N}]+/u;

/**
 * Longer terms are not words but data (base64, hashes, minified code): they
 * never match and, with prefix and fuzzy matching, cost the most to search.
 */
const MAX_TERM_LENGTH = 40;

/** Starts every index key that stands for CJK characters (never part of a word: words are letters and digits). */
export const CJK_KEY = '~';

/**
 * Memo of the terms of each word already analysed: a catalog's vocabulary is
 * small next to its text, and splitting and stemming dominated indexing time.
 * Cleared when it gets large, so odd input cannot grow it without end.
 */
const wordMemo = new Map<string, readonly string[]>();
const MEMO_LIMIT = 50_000;

/** Splits camelCase and letter/digit boundaries: `parseHTMLTable2` -> parse HTML Table 2. */
function splitCamel(word: string): string[] {
  return word
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Za-z])/g, '$1 $2')
    .split(' ');
}

/** Normalizes one word part: lower case, stopwords dropped, English words stemmed. */
function processTerm(term: string): string | null {
  if (term === '' || term.length > MAX_TERM_LENGTH) return null;
  const lower = term.toLowerCase();
  if (isStopword(lower)) return null;
  if (!/^[a-z]+$/.test(lower)) return lower;
  return lower.length > 3 ? stemmer(lower) : lower;
}

function wordTerms(word: string): readonly string[] {
  const out: string[] = [];
  for (const part of /^[a-z]+$/.test(word) ? [word] : splitCamel(word)) {
    const term = processTerm(part);
    if (term) out.push(term);
  }
  return out;
}

/**
 * The index key of CJK characters: their code points in hex after `CJK_KEY`.
 * The index is a radix tree whose nodes are scanned child by child; as plain
 * characters, every distinct first character of a bigram (hundreds in a few
 * Chinese descriptions) became a child of the root, which every insertion and
 * every fuzzy search walked. In hex they share one branch of fan-out 16.
 */
function cjkKey(chars: string): string {
  let key = CJK_KEY;
  for (const char of chars) key += char.codePointAt(0)!.toString(16).padStart(4, '0');
  return key;
}

/** Keys of the overlapping bigrams of a run of CJK characters (of the run itself when it is one character). */
function bigramKeys(run: string, out: string[]): void {
  const chars = [...run];
  if (chars.length === 1) out.push(cjkKey(run));
  for (let i = 0; i + 1 < chars.length; i++) out.push(cjkKey(chars[i]! + chars[i + 1]!));
}

/**
 * The search terms of a text, in order and with repeats (term frequency
 * counts). The index and every query read text through this; each distinct
 * word is split and stemmed once, and Latin text skips the CJK pass.
 */
export function analyze(text: string): string[] {
  const out: string[] = [];
  const latin = CJK.test(text)
    ? text.replace(CJK_RUN, (run) => {
        bigramKeys(run, out);
        return ' ';
      })
    : text;
  for (const word of latin.split(NOT_WORD)) {
    if (word === '') continue;
    let terms = wordMemo.get(word);
    if (terms === undefined) {
      if (wordMemo.size >= MEMO_LIMIT) wordMemo.clear();
      terms = wordTerms(word);
      wordMemo.set(word, terms);
    }
    for (const term of terms) out.push(term);
  }
  return out;
}

/** The distinct terms of a text (used to weigh query parts). */
export function terms(text: string): string[] {
  return [...new Set(analyze(text))];
}
