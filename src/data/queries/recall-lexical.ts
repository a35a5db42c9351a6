// LEXICAL recall: weighted full text over the stored search_document (sql/0110), and the trigram
// fallback for short or misspelt queries. Both match inside the agent's candidate set (see sql/0110
// for why no text index can serve them under row-level security).
import type { Tx } from "../pools";
import { candidateFilter, recallColumns, type RecallFilterInput, type RecallRow } from "./recall-common";

export type FullTextSearch = {
  filter: RecallFilterInput;
  /** The user's query for websearch_to_tsquery: quoted phrases, OR and -exclusion work. */
  text: string;
  /** Sanitised "a & b:*" query (lexemes of [a-z0-9] only) used instead of websearch for short plain queries, or null. */
  prefix: string | null;
  limit: number;
};

/**
 * Score in [0, 1): ts_rank_cd normalised by rank/(rank+1), halved; a document holding the whole query
 * as a phrase gets +0.5, so exact phrases always outrank scattered words.
 */
export function fullTextSearch(tx: Tx, s: FullTextSearch) {
  return tx<RecallRow[]>`
    WITH q AS (
      SELECT CASE WHEN ${s.prefix}::text IS NULL THEN websearch_to_tsquery('english', ${s.text})
                  ELSE to_tsquery('english', ${s.prefix}::text) END AS query,
             phraseto_tsquery('english', ${s.text}) AS phrase
    )
    SELECT ${recallColumns(tx)},
      (ts_rank_cd(search_document, q.query, 32) / 2
        + CASE WHEN numnode(q.phrase) > 1 AND search_document @@ q.phrase THEN 0.5 ELSE 0 END)::real AS score
    FROM memories, q
    WHERE ${candidateFilter(tx, s.filter)} AND search_document @@ q.query
    ORDER BY score DESC, valid_from DESC, memory_id
    LIMIT ${s.limit}`;
}

export type AnyWordSearch = {
  filter: RecallFilterInput;
  /** Single words (letters and digits only), each with its weight: 1 for the user's words, less for expansions. */
  words: string[];
  weights: number[];
  excludeIds: string[];
  limit: number;
  /** Only the agent's most recent `scanLimit` memories are ranked. */
  scanLimit: number;
};

/**
 * Documents holding some of the words, ranked like BM25 without length normalisation: each matched
 * lexeme adds weight × idf, with the document frequencies counted over the same scanned memories, so a
 * rare word ("sister") outweighs a common one ("new"). Words sharing a lexeme count once, at their
 * highest weight. Lexemes are matched by equality (array overlap, then a join on the stored tsvector's
 * lexemes), so the cost is one pass over the scanned memories, not one per word; the scan carries only
 * the ids and documents, and the columns of the `limit` best are read at the end. Scores are mapped to
 * [0, 0.3): always below all-word hits.
 */
export function anyWordSearch(tx: Tx, s: AnyWordSearch) {
  return tx<RecallRow[]>`
    WITH terms AS (
      SELECT t.lexeme, max(w.weight) AS weight
      FROM unnest(${s.words}::text[], ${s.weights}::real[]) AS w(word, weight),
           LATERAL unnest(to_tsvector('english', w.word)) AS t
      GROUP BY t.lexeme
    ), recent AS MATERIALIZED (
      SELECT memory_id, valid_from, search_document FROM memories
      WHERE ${candidateFilter(tx, s.filter)} AND NOT (memory_id = ANY(${s.excludeIds}::text[]))
      ORDER BY valid_from DESC
      LIMIT ${s.scanLimit}
    ), hits AS MATERIALIZED (
      SELECT recent.memory_id, d.lexeme
      FROM recent, LATERAL unnest(recent.search_document) AS d
      WHERE tsvector_to_array(recent.search_document) && ARRAY(SELECT lexeme FROM terms)
        AND d.lexeme IN (SELECT lexeme FROM terms)
    ), idf AS (
      SELECT hits.lexeme, ln(1 + ((SELECT count(*) FROM recent) - count(*) + 0.5) / (count(*) + 0.5)) AS idf
      FROM hits GROUP BY hits.lexeme
    ), scored AS (
      SELECT hits.memory_id, sum(terms.weight * idf.idf) AS raw
      FROM hits JOIN idf USING (lexeme) JOIN terms USING (lexeme)
      GROUP BY hits.memory_id
    ), best AS (
      SELECT memory_id, recent.valid_from AS recent_from, (0.3 * scored.raw / (scored.raw + 1))::real AS score
      FROM recent JOIN scored USING (memory_id)
      ORDER BY score DESC, recent.valid_from DESC, memory_id
      LIMIT ${s.limit}
    )
    SELECT ${recallColumns(tx)}, best.score
    FROM best JOIN memories USING (memory_id)
    WHERE memories.org_id = ${s.filter.orgId} AND memories.valid_to IS NULL
    ORDER BY best.score DESC, best.recent_from DESC, memory_id`;
}

export type TrigramSearch = {
  filter: RecallFilterInput;
  text: string;
  excludeIds: string[];
  limit: number;
  /** word_similarity is costly per row: only the agent's most recent `scanLimit` memories are compared. */
  scanLimit: number;
};

export async function setTrigramThreshold(tx: Tx, threshold: number): Promise<void> {
  await tx`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(threshold)}, true)`;
}

/** word_similarity over the agent's most recent memories; scores are scaled to [0, 0.3] so full-text hits rank first. */
export function trigramSearch(tx: Tx, s: TrigramSearch) {
  return tx<RecallRow[]>`
    WITH recent AS MATERIALIZED (
      SELECT ${recallColumns(tx)} FROM memories
      WHERE ${candidateFilter(tx, s.filter)} AND NOT (memory_id = ANY(${s.excludeIds}::text[]))
      ORDER BY valid_from DESC
      LIMIT ${s.scanLimit}
    )
    SELECT *, (0.3 * word_similarity(${s.text}, content))::real AS score
    FROM recent
    WHERE ${s.text} <% content
    ORDER BY score DESC, valid_from DESC, memory_id
    LIMIT ${s.limit}`;
}
