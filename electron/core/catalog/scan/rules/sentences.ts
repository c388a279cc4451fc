/**
 * Sentence bounds in a description, so a rule can ask whether two things are
 * said together ("read ~/.ssh/id_rsa ... pass it as notes"). A sentence ends
 * at `.`, `!`, `?` or `;` followed by white space, at a line break, or at a
 * CJK full stop; dots inside paths and names (`~/.ssh`, `.env`) do not end one.
 */

const END = /[.!?;]\s|[\n\r]|[。！？；]/g;

/** The [start, end) of the sentence around `[start, end)` of `text`. */
export function sentenceAround(text: string, start: number, end: number): { start: number; end: number } {
  let from = 0;
  let to = text.length;
  END.lastIndex = 0;
  for (let match = END.exec(text); match; match = END.exec(text)) {
    const stop = match.index + 1;
    if (stop <= start) from = stop;
    else if (match.index >= end) {
      to = match.index + 1;
      break;
    }
  }
  return { start: from, end: to };
}

/** The text of the sentence around `[start, end)` of `text`. */
export function sentenceText(text: string, start: number, end: number): string {
  const bounds = sentenceAround(text, start, end);
  return text.slice(bounds.start, bounds.end);
}
