/**
 * The full-text index of the catalog's tools (minisearch: BM25+ per field,
 * prefix and fuzzy terms). One index serves every client: a search is
 * filtered to what the calling client may use. A catalog change updates only
 * the tools that were added, removed or redefined.
 *
 * Agents send whole task descriptions ("geocode the Forbidden City, then find
 * parking and things to do nearby"), not keywords. A task names several
 * needs; one ranked list over the whole text tends to fill up with variants of
 * whichever need has the rarest words. So the query is also split into its
 * clauses, each ranked on its own, and the lists are fused.
 *
 * A task's tools often come from one server (load, beat_track and mfcc of a
 * music server): the servers of the first results lift their other tools a
 * little (pseudo-relevance feedback by server; bench/search.ts measures it).
 */
import type { Tool } from '@modelcontextprotocol/server';
import MiniSearch, { type SearchOptions } from 'minisearch';
import { FIELD_BOOSTS, toolDocument, type ToolDocument } from './toolDocument.js';
import { analyze, CJK_KEY, terms } from './textAnalysis.js';

/** A tool the index can hold. */
export interface IndexableTool {
  tool: Tool;
  origin: { backendId: string; original: string };
}

/** One ranked match. */
export interface ToolMatch {
  /** The catalog's exposed name. */
  name: string;
  score: number;
}

/**
 * Reciprocal-rank fusion constant: small, so each clause's best tool stays
 * near the top of the fused list (Cormack et al. 2009 use 60 for long lists;
 * here only the first few results matter).
 */
const FUSION_K = 2;

/** A query is read up to this many characters (a task description fits; pasted data is cut off). */
export const MAX_QUERY_LENGTH = 2000;

/** Weight of the whole query's list against each clause's. */
const WHOLE_QUERY_WEIGHT = 1.5;

/** Results ranked before the server feedback reorders them (it can lift a tool from this deep). */
const RERANK_DEPTH = 30;
/** The first results whose servers lift their other tools. */
const FEEDBACK_RESULTS = 10;
/** How much: a tool gains this times its server's share of the first results' scores (relative to the best). */
const FEEDBACK_WEIGHT = 0.1;

/** Queries of at most this many terms get prefix matching. */
const PREFIX_MAX_TERMS = 8;
/** Queries of at most this many terms get fuzzy matching. */
const FUZZY_MAX_TERMS = 6;

/** A query's distinct terms beyond this many are not searched (each costs a lookup, and pasted data has hundreds). */
const MAX_QUERY_TERMS = 64;

/** Clause boundaries: sentence ends, commas, semicolons, and the words that join steps. */
const BOUNDARY =
  /[.!?;:,\n()]+\s*|\s+(?:and|then|also|plus|after that|afterwards|finally|as well as|followed by|before|after|including|with)\s+/i;

/** At most this many parts (beyond it, the whole query still covers the rest). */
const MAX_PARTS = 8;

/** The clauses of a query that carry at least one search term (none when the query is a single clause). */
function queryParts(query: string): string[] {
  const parts = query
    .split(BOUNDARY)
    .map((part) => part.trim())
    .filter((part) => part !== '' && terms(part).length > 0);
  if (parts.length < 2) return [];
  return parts.slice(0, MAX_PARTS);
}

/**
 * How queries are read. Keyword queries get prefix matches ("geo" finds geocode) and, for
 * long words the catalog does not have, a typo allowance (a word it has is spelt right, and
 * a fuzzy walk of the whole term tree is the costliest part of a search). Whole task
 * descriptions spell their words out; expanding each of their terms costs time and ranks
 * worse on LiveMCPBench (bench/search.ts).
 */
function searchOptions(known: (term: string) => boolean): SearchOptions {
  return {
    tokenize: (text) => [...new Set(analyze(text))].slice(0, MAX_QUERY_TERMS),
    processTerm: (term) => term,
    boost: FIELD_BOOSTS,
    prefix: (term, _i, all) => term.length >= 3 && all.length <= PREFIX_MAX_TERMS,
    fuzzy: (term, _i, all) =>
      term.length >= 6 && all.length <= FUZZY_MAX_TERMS && !term.startsWith(CJK_KEY) && !known(term) ? 0.15 : false,
    weights: { prefix: 0.4, fuzzy: 0.25 },
  };
}

const FIELDS = Object.keys(FIELD_BOOSTS) as (keyof typeof FIELD_BOOSTS)[];

/** The catalog's tools, searchable. */
export class ToolSearchIndex {
  /** How often each term occurs in the index (a query word the catalog has is not looked up as a typo). */
  private readonly vocabulary = new Map<string, number>();
  private readonly mini = new MiniSearch<ToolDocument>({
    fields: FIELDS,
    idField: 'id',
    // Terms come out of `analyze` processed already (minisearch would process each again).
    tokenize: (text) => {
      const terms = analyze(text);
      this.count(terms, 1);
      return terms;
    },
    processTerm: (term) => term,
    searchOptions: searchOptions((term) => this.vocabulary.has(term)),
  });
  /** What each indexed tool was indexed from (its document as JSON), to find what changed. */
  private readonly indexed = new Map<string, string>();
  /** Each indexed tool's backend, for the server feedback. */
  private readonly serverOf = new Map<string, string>();

  /** Number of indexed tools. */
  get size(): number {
    return this.indexed.size;
  }

  /**
   * Brings the index in line with `tools`: adds new tools, drops removed ones,
   * re-indexes redefined ones; the rest are untouched. Returns how many changed.
   */
  sync(tools: Iterable<IndexableTool>, serverTitle?: (backendId: string) => string | undefined): number {
    const seen = new Set<string>();
    let changes = 0;
    for (const { tool, origin } of tools) {
      seen.add(tool.name);
      const document = toolDocument(tool, origin, serverTitle?.(origin.backendId));
      const fingerprint = JSON.stringify(document);
      const previous = this.indexed.get(tool.name);
      if (previous === fingerprint) continue;
      if (previous !== undefined) this.remove(tool.name);
      this.add(document, fingerprint, origin.backendId);
      changes++;
    }
    for (const name of [...this.indexed.keys()]) {
      if (seen.has(name)) continue;
      this.remove(name);
      changes++;
    }
    return changes;
  }

  private add(document: ToolDocument, fingerprint: string, backendId: string): void {
    this.mini.add(document);
    this.indexed.set(document.id, fingerprint);
    this.serverOf.set(document.id, backendId);
  }

  private remove(name: string): void {
    const fingerprint = this.indexed.get(name);
    if (fingerprint === undefined) return;
    this.mini.discard(name);
    this.indexed.delete(name);
    this.serverOf.delete(name);
    // Its terms, as they were counted when it was added.
    const document = JSON.parse(fingerprint) as ToolDocument;
    for (const field of FIELDS) this.count(analyze(document[field]), -1);
  }

  private count(terms: readonly string[], by: 1 | -1): void {
    for (const term of terms) {
      const count = (this.vocabulary.get(term) ?? 0) + by;
      if (count <= 0) this.vocabulary.delete(term);
      else this.vocabulary.set(term, count);
    }
  }

  /**
   * The best matches for a query among the tools `mayUse` accepts, best first.
   * A multi-clause query ranks each clause too and fuses the lists, so every
   * need of a task gets its best tool near the top.
   */
  search(text: string, limit: number, mayUse: (name: string) => boolean = () => true): ToolMatch[] {
    const query = text.slice(0, MAX_QUERY_LENGTH);
    const filter = (result: { id: unknown }): boolean => mayUse(result.id as string);
    const depth = Math.max(limit, RERANK_DEPTH);
    const whole = this.mini.search(query, { filter }).slice(0, depth);
    const parts = queryParts(query);
    if (parts.length === 0)
      return this.withServerFeedback(
        whole.map((r) => [r.id as string, r.score]),
        limit,
      );
    const fused = new Map<string, number>();
    const add = (list: { id: unknown }[], weight: number): void => {
      list.forEach((result, rank) => {
        const name = result.id as string;
        fused.set(name, (fused.get(name) ?? 0) + weight / (FUSION_K + rank + 1));
      });
    };
    add(whole, WHOLE_QUERY_WEIGHT);
    for (const part of parts) add(this.mini.search(part, { filter }).slice(0, depth), 1);
    return this.withServerFeedback([...fused.entries()].sort((a, b) => b[1] - a[1]).slice(0, depth), limit);
  }

  /** Ranked (name, score) pairs, best first, reordered by the server feedback (see the file header). */
  private withServerFeedback(ranked: [string, number][], limit: number): ToolMatch[] {
    const best = ranked[0]?.[1] ?? 1;
    const servers = new Map<string, number>();
    for (const [name, score] of ranked.slice(0, FEEDBACK_RESULTS)) {
      const server = this.serverOf.get(name)!;
      servers.set(server, (servers.get(server) ?? 0) + score / best);
    }
    return ranked
      .map(([name, score]) => ({
        name,
        score: score / best + FEEDBACK_WEIGHT * (servers.get(this.serverOf.get(name)!) ?? 0),
      }))
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }
}
