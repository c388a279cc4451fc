/**
 * What a tool definition costs a model's context, in tokens of OpenAI's
 * o200k encoding (gpt-tokenizer; Claude's count is within a few percent on
 * tool JSON). A tools/list costs about the sum of its tools' costs. Counts are
 * cached by definition, so a catalog change only counts what is new.
 */
import { lazyRequire } from '../platform/env/lazyRequire.js';

type CountTokens = (text: string) => number;
const encoding = lazyRequire<{ countTokens: CountTokens }>('gpt-tokenizer/encoding/o200k_base');

/**
 * The encoding's ranks cost about 20 MB of heap (a 4 MB source and its
 * tables), a third of serve's own: loaded on the first count (the UI's token
 * figures, an `auto` exposure with `maxToolTokens`), so a serve whose clients
 * take the whole list never pays for them.
 */
function countTokens(text: string): number {
  return encoding().countTokens(text);
}

/** Counted definitions (JSON text -> tokens); bounded so a churning catalog cannot grow it without end. */
const counted = new Map<string, number>();
const MAX_CACHED = 20_000;

/** Tokens of one tool definition as a client receives it in tools/list. */
export function toolTokens(tool: object): number {
  const text = JSON.stringify(tool);
  let tokens = counted.get(text);
  if (tokens === undefined) {
    tokens = countTokens(text);
    if (counted.size >= MAX_CACHED) counted.delete(counted.keys().next().value!);
    counted.set(text, tokens);
  }
  return tokens;
}

/** Tokens of a whole tools/list result (its tools plus the few of the envelope). */
export function toolListTokens(tools: readonly object[]): number {
  let total = countTokens('{"tools":[]}');
  for (const tool of tools) total += toolTokens(tool) + 1;
  return total;
}
