/**
 * The features of the learned-wording rule, shared by the rule and by the
 * script that fits its weights (bench/trainScanModel.ts), so both read a
 * sentence the same way: lower-cased words (letters, digits, apostrophes),
 * each word and each pair of neighbouring words, with the span each covers so
 * a finding can quote the words that weighed most. Function words ("the",
 * "and", "of") are kept inside pairs but not counted alone: alone they only
 * measure a sentence's length.
 */

/** One feature occurrence: the n-gram and where its words are in the sentence. */
export interface WordingFeature {
  gram: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}']+/gu;

const FUNCTION_WORDS = new Set(
  'a an and are as at be by for from has have in into is it its of on or that the this to was were will with'.split(
    ' ',
  ),
);

/** The unigrams and bigrams of `text`, with their spans. */
export function wordingFeatures(text: string): WordingFeature[] {
  const words: { word: string; start: number; end: number }[] = [];
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match; match = WORD.exec(text)) {
    const word = match[0].toLowerCase().replace(/^'+|'+$/g, '');
    if (word) words.push({ word, start: match.index, end: match.index + match[0].length });
  }
  const features: WordingFeature[] = words
    .filter(({ word }) => !FUNCTION_WORDS.has(word))
    .map(({ word, start, end }) => ({ gram: word, start, end }));
  for (let i = 1; i < words.length; i++) {
    features.push({ gram: `${words[i - 1]!.word} ${words[i]!.word}`, start: words[i - 1]!.start, end: words[i]!.end });
  }
  return features;
}

/** The sentences of a text as [start, end) spans (see sentences.ts for where one ends). */
export function sentenceSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  const end = /[.!?;]\s|[\n\r]|[。！？；]/g;
  let from = 0;
  for (let match = end.exec(text); match; match = end.exec(text)) {
    const stop = match.index + 1;
    if (text.slice(from, stop).trim()) spans.push({ start: from, end: stop });
    from = stop;
  }
  if (text.slice(from).trim()) spans.push({ start: from, end: text.length });
  return spans;
}
