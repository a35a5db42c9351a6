// LEXICAL recall: weighted full text over the stored search_document (sql/0110), the any-word tier over
// its postings (sql/0135), and the trigram fallback for short or misspelt queries. The postings are a
// btree, which row-level security can use; where they cannot narrow the candidates (the trigram tier, and
// full text with websearch operators), a tier matches inside the agent's candidate set (see sql/0110 for
// why no text index can serve it).
import type { Tx } from "../pools";
import { candidateFilter, narrowsCandidates, recallColumns, type RecallFilterInput, type RecallRow } from "./recall-common";

export type FullTextSearch = {
  filter: RecallFilterInput;
  /** The user's query for websearch_to_tsquery: quoted phrases, OR and -exclusion work. */
  text: string;
  /** Sanitised "a & b:*" query (lexemes of [a-z0-9] only) used instead of websearch for short plain queries, or null. */
  prefix: string | null;
  /**
   * The text uses no websearch operator (quotes, `or`, `-word`) and no prefix: every lexeme of it is
   * required, so a match holds the rarest one, and the candidates come from that lexeme's postings.
   */
  everyLexemeRequired: boolean;
  limit: number;
};

/** How many postings of each query lexeme are counted to find the rarest: enough to tell rare from common. */
const RAREST_PROBE = 500;

export type AnyWordSearch = {
  filter: RecallFilterInput;
  /** Single words (letters and digits only), each with its weight: 1 for the user's words, less for expansions. */
  words: string[];
  weights: number[];
  limit: number;
  /** Only the agent's most recent `scanLimit` memories are ranked. */
  scanLimit: number;
};

/**
 * The all-words tier's CTE `whole`: score in [0, 1), ts_rank_cd normalised by rank/(rank+1), halved; a
 * document holding the whole query as a phrase gets +0.5, so exact phrases always outrank scattered
 * words. The queries are parsed once (MATERIALIZED): on a generic plan an inlined CTE would parse them
 * again for every row.
 */
function allWordsCtes(tx: Tx, s: FullTextSearch) {
  const { orgId, agentId } = s.filter;
  const score = tx`(ts_rank_cd(search_document, q.query, 32) / 2
          + CASE WHEN numnode(q.phrase) > 1 AND search_document @@ q.phrase THEN 0.5 ELSE 0 END)::real AS score`;
  const queries = tx`q AS MATERIALIZED (
      SELECT CASE WHEN ${s.prefix}::text IS NULL THEN websearch_to_tsquery('english', ${s.text})
                  ELSE to_tsquery('english', ${s.prefix}::text) END AS query,
             phraseto_tsquery('english', ${s.text}) AS phrase
    )`;
  if (!s.everyLexemeRequired) {
    return tx`${queries}, whole AS MATERIALIZED (
      SELECT ${recallColumns(tx)}, ${score}
      FROM memories, q
      WHERE ${candidateFilter(tx, s.filter)} AND search_document @@ q.query
      ORDER BY score DESC, valid_from DESC, memory_id
      LIMIT ${s.limit}
    )`;
  }
  // Every lexeme is required: the memories holding the rarest one (by a bounded count of postings) are
  // the only candidates, read one by one through the primary key and matched exactly as above.
  return tx`${queries}, rarest AS MATERIALIZED (
      SELECT l.lexeme FROM unnest(tsvector_to_array(to_tsvector('english', ${s.text}))) AS l(lexeme)
      ORDER BY (SELECT count(*) FROM (
        SELECT 1 FROM memory_lexemes p WHERE p.org_id = ${orgId} AND p.agent_id = ${agentId} AND p.lexeme = l.lexeme LIMIT ${RAREST_PROBE}
      ) AS seen), l.lexeme
      LIMIT 1
    ), whole AS MATERIALIZED (
      SELECT ${recallColumns(tx)}, ${score}
      FROM rarest, q, LATERAL (
        SELECT memory_id AS holding FROM memory_lexemes p WHERE p.org_id = ${orgId} AND p.agent_id = ${agentId} AND p.lexeme = rarest.lexeme
      ) AS holder, LATERAL (
        SELECT ${recallColumns(tx)}, search_document FROM memories
        WHERE ${candidateFilter(tx, s.filter)} AND memory_id = holder.holding
        LIMIT 1
      ) AS m
      WHERE m.search_document @@ q.query
      ORDER BY score DESC, valid_from DESC, memory_id
      LIMIT ${s.limit}
    )`;
}

/**
 * The any-word tier's CTEs: documents holding some of the words, ranked like BM25 without length
 * normalisation. Each matched lexeme adds weight × idf, so a rare word ("sister") outweighs a common one
 * ("new"); words sharing a lexeme count once, at their highest weight. Everything up to the ranking comes
 * from the postings of the query's lexemes (memory_lexemes, sql/0135: a btree that row-level security can
 * use), kept to the most recent memories by the key's valid_from.
 *
 * "Most recent" counts the memories that pass the filter (TEMPORAL's window, a memory type…), so an old
 * window is ranked as fully as a new one, and the document frequencies are counted over those same
 * memories. Without such a filter the newest memories come from an index-only scan of the agent's btree,
 * and every posting since the oldest of them is one of theirs.
 */
function anyWordCtes(tx: Tx, s: AnyWordSearch) {
  const { orgId, agentId } = s.filter;
  const narrowed = narrowsCandidates(s.filter);
  return tx`terms AS (
      SELECT t.lexeme, max(w.weight) AS weight
      FROM unnest(${s.words}::text[], ${s.weights}::real[]) AS w(word, weight),
           LATERAL unnest(to_tsvector('english', w.word)) AS t
      GROUP BY t.lexeme
    ), newest AS MATERIALIZED (
      SELECT ${narrowed ? tx`memory_id, valid_from` : tx`valid_from`} FROM memories
      WHERE ${narrowed ? candidateFilter(tx, s.filter) : tx`org_id = ${orgId} AND agent_id = ${agentId} AND valid_to IS NULL`}
      ORDER BY valid_from DESC
      LIMIT ${s.scanLimit}
    ), recent AS MATERIALIZED (
      SELECT count(*) AS total, min(valid_from) AS since FROM newest
    ), posted AS MATERIALIZED (
      SELECT p.memory_id, p.lexeme, p.valid_from
      FROM terms, recent, LATERAL (
        SELECT memory_id, lexeme, valid_from FROM memory_lexemes
        WHERE org_id = ${orgId} AND agent_id = ${agentId} AND lexeme = terms.lexeme AND valid_from >= recent.since
      ) AS p
      ${narrowed ? tx`WHERE p.memory_id IN (SELECT memory_id FROM newest)` : tx``}
    ), idf AS (
      SELECT lexeme, ln(1 + ((SELECT total FROM recent) - count(*) + 0.5) / (count(*) + 0.5)) AS idf
      FROM posted GROUP BY lexeme
    )`;
}

/**
 * The any-word tier's memories, best first: ranked from the postings, then read until `limit` pass the
 * filter and are not `excluded`. Scores are mapped to [0, 0.3): always below all-word hits. `raw` (the
 * unmapped score) orders them.
 */
function anyWordRanked(tx: Tx, s: AnyWordSearch, excluded: ReturnType<Tx>, limit: ReturnType<Tx>) {
  return tx`
    SELECT m.*, (0.3 * scored.raw / (scored.raw + 1))::real AS score, scored.raw
    FROM (
      SELECT posted.memory_id, max(posted.valid_from) AS valid_from, sum(terms.weight * idf.idf) AS raw
      FROM posted JOIN idf USING (lexeme) JOIN terms USING (lexeme)
      GROUP BY posted.memory_id
      ORDER BY raw DESC, valid_from DESC, memory_id
    ) AS scored, LATERAL (
      SELECT ${recallColumns(tx)} FROM memories
      WHERE ${candidateFilter(tx, s.filter)} AND memory_id = scored.memory_id AND NOT (${excluded})
      LIMIT 1
    ) AS m
    ORDER BY scored.raw DESC, scored.valid_from DESC, scored.memory_id
    LIMIT ${limit}`;
}

/** The any-word tier alone, leaving out `excludeIds` (TEMPORAL ranks a window's memories with it). */
export function anyWordSearch(tx: Tx, s: AnyWordSearch & { excludeIds: string[] }) {
  return tx<RecallRow[]>`WITH ${anyWordCtes(tx, s)} ${anyWordRanked(tx, s, tx`memory_id = ANY(${s.excludeIds}::text[])`, tx`${s.limit}`)}`;
}

type TieredRow = RecallRow & { tier: 1 | 2 };

/**
 * Both tiers in one statement, so one round trip: the all-words tier's `limit` best, then as many of the
 * any-word tier (`anyWords.limit` at most) as fill `limit`, leaving out what the first found. When the
 * first tier fills `limit`, the second's LIMIT is 0 and PostgreSQL never runs it.
 */
export function allThenAnyWords(tx: Tx, s: FullTextSearch, anyWords: Omit<AnyWordSearch, "filter">) {
  const second = { ...anyWords, filter: s.filter };
  return tx<Array<TieredRow & { sort_key: number }>>`
    WITH ${allWordsCtes(tx, s)}, ${anyWordCtes(tx, second)}
    SELECT ${recallColumns(tx)}, score, 1 AS tier, score::float8 AS sort_key FROM whole
    UNION ALL
    SELECT ${recallColumns(tx)}, score, 2, raw FROM (
      ${anyWordRanked(tx, second, tx`memory_id IN (SELECT memory_id FROM whole)`, tx`(SELECT least(${anyWords.limit}::int, ${s.limit}::int - count(*)) FROM whole)`)}
    ) AS partial
    ORDER BY tier, sort_key DESC, valid_from DESC, memory_id`;
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
