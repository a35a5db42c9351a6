// LEXICAL recall: weighted full text over the stored search_document (sql/0110), and the trigram
// fallback for short or misspelt queries. Both match inside the agent's candidate set (see sql/0110
// for why no text index can serve them under row-level security).
import type { Tx } from "../pools";
import { candidateFilter, narrowsCandidates, recallColumns, type RecallFilterInput, type RecallRow } from "./recall-common";

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
 * as a phrase gets +0.5, so exact phrases always outrank scattered words. The queries are parsed once
 * (MATERIALIZED): on a generic plan an inlined CTE would parse them again for every row.
 */
export function fullTextSearch(tx: Tx, s: FullTextSearch) {
  return tx<RecallRow[]>`
    WITH q AS MATERIALIZED (
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
 * lexeme adds weight × idf, with the document frequencies counted over the agent's most recent
 * `scanLimit` memories, so a rare word ("sister") outweighs a common one ("new"). Words sharing a lexeme
 * count once, at their highest weight. Everything up to the ranking comes from the postings of the
 * query's lexemes (memory_lexemes, sql/0135: a btree that row-level security can use), kept to the most
 * recent memories by the key's valid_from. Memories are read last, best first, until `limit` pass the
 * filter. Scores are mapped to [0, 0.3): always below all-word hits.
 *
 * "Most recent" counts the memories that pass the filter (TEMPORAL's window, a memory type…), so an old
 * window is ranked as fully as a new one; without such a filter the count is an index-only scan of the
 * agent's btree. The document frequencies are those of all the agent's memories since that cutoff.
 */
export function anyWordSearch(tx: Tx, s: AnyWordSearch) {
  const { orgId, agentId } = s.filter;
  return tx<RecallRow[]>`
    WITH terms AS (
      SELECT t.lexeme, max(w.weight) AS weight
      FROM unnest(${s.words}::text[], ${s.weights}::real[]) AS w(word, weight),
           LATERAL unnest(to_tsvector('english', w.word)) AS t
      GROUP BY t.lexeme
    ), recent AS MATERIALIZED (
      SELECT count(*) AS total, min(valid_from) AS since FROM (
        SELECT valid_from FROM memories
        WHERE ${narrowsCandidates(s.filter) ? candidateFilter(tx, s.filter) : tx`org_id = ${orgId} AND agent_id = ${agentId} AND valid_to IS NULL`}
        ORDER BY valid_from DESC
        LIMIT ${s.scanLimit}) AS newest
    ), posted AS MATERIALIZED (
      SELECT p.memory_id, p.lexeme, p.valid_from
      FROM terms, recent, LATERAL (
        SELECT memory_id, lexeme, valid_from FROM memory_lexemes
        WHERE org_id = ${orgId} AND agent_id = ${agentId} AND lexeme = terms.lexeme AND valid_from >= recent.since
      ) AS p
    ), idf AS (
      SELECT lexeme, ln(1 + ((SELECT total FROM recent) - count(*) + 0.5) / (count(*) + 0.5)) AS idf
      FROM posted GROUP BY lexeme
    )
    SELECT m.*, (0.3 * scored.raw / (scored.raw + 1))::real AS score
    FROM (
      SELECT posted.memory_id, max(posted.valid_from) AS valid_from, sum(terms.weight * idf.idf) AS raw
      FROM posted JOIN idf USING (lexeme) JOIN terms USING (lexeme)
      GROUP BY posted.memory_id
      ORDER BY raw DESC, valid_from DESC, memory_id
    ) AS scored, LATERAL (
      SELECT ${recallColumns(tx)} FROM memories
      WHERE ${candidateFilter(tx, s.filter)} AND memory_id = scored.memory_id
        AND NOT (memory_id = ANY(${s.excludeIds}::text[]))
      LIMIT 1
    ) AS m
    ORDER BY scored.raw DESC, scored.valid_from DESC, scored.memory_id
    LIMIT ${s.limit}`;
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
