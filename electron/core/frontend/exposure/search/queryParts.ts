/**
 * Agents send whole task descriptions ("geocode the Forbidden City, then find
 * parking and things to do nearby"), not keywords. A task names several
 * needs; one ranked list over the whole text tends to fill up with variants of
 * whichever need has the rarest words. So the query is also split into its
 * clauses, each ranked on its own, and the lists are fused.
 */
import { terms } from './textAnalysis.js';

/** Clause boundaries: sentence ends, commas, semicolons, and the words that join steps. */
const BOUNDARY =
  /[.!?;:,\n()]+\s*|\s+(?:and|then|also|plus|after that|afterwards|finally|as well as|followed by|before|after|including|with)\s+/i;

/** At most this many parts (beyond it, the whole query still covers the rest). */
const MAX_PARTS = 8;

/** The clauses of a query that carry at least one search term (none when the query is a single clause). */
export function queryParts(query: string): string[] {
  const parts = query
    .split(BOUNDARY)
    .map((part) => part.trim())
    .filter((part) => part !== '' && terms(part).length > 0);
  if (parts.length < 2) return [];
  return parts.slice(0, MAX_PARTS);
}
