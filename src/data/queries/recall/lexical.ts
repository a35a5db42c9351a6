// LEXICAL recall: weighted full text over the stored search_document (sql/0110), BM25 over the
// postings of sql/0430 (which also narrow the full-text candidates, sql/0570), and the trigram
// fallback for short or misspelt queries. The postings are a btree, which row-level security can
// use; where they cannot narrow the candidates (the trigram tier, and full text with websearch
// operators), a tier matches inside the agent's candidate set (see sql/0110 for why no text index
// can serve it).
import type { Tx } from "../../pools";
import { type Feedback, withFeedbackTerms } from "./feedback";
import {
  candidateFilter,
  narrowsCandidates,
  recallColumns,
  type RecallFilterInput,
  type RecallRow,
} from "./common";

export type FullTextSearch = {
  filter: RecallFilterInput;
  /** The user's query for websearch_to_tsquery: quoted phrases, OR and -exclusion work. */
  text: string;
  /**
   * Sanitised "a & b:*" query (lexemes of [a-z0-9] only) used instead of websearch for short plain
   * queries, or null.
   */
  prefix: string | null;
  /**
   * The text uses no websearch operator (quotes, `or`, `-word`) and no prefix: every lexeme of it
   * is required, so a match holds the rarest one, and the candidates come from that lexeme's
   * postings.
   */
  everyLexemeRequired: boolean;
  limit: number;
};

export type AnyWordSearch = {
  filter: RecallFilterInput;
  /**
   * Words (a user's word, an identifier, or a related word), each with its weight: 1 for the user's
   * words, less for expansions. Each is tokenised as documents are (svc_bm25_terms, sql/0430).
   */
  words: string[];
  weights: number[];
  limit: number;
  /**
   * Under a filter that narrows the candidates, only the `scanLimit` most recent that pass it are
   * ranked.
   */
  scanLimit: number;
  /** A second pass: the words of these memories join the query's (recall-feedback.ts). */
  feedback?: Feedback;
};

/**
 * Postings read per term, best impact first (sql/0430): bounds the work of a very common term. A
 * memory past the cap loses only that term's share of its score, and such a term weighs little.
 */
export const POSTINGS_PER_TERM = 2_000;

/**
 * The all-words tier's CTE `whole`: score in [0, 1), ts_rank_cd normalised by rank/(rank+1),
 * halved; a document holding the whole query as a phrase gets +0.5, so exact phrases always outrank
 * scattered words. The queries are parsed once (MATERIALIZED): on a generic plan an inlined CTE
 * would parse them again for every row.
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
  // Every lexeme is required: the memories holding the rarest one (its document frequency, from
  // memory_term_stats) are the only candidates. memory_terms holds every lexeme of search_document
  // (sql/0570), so the rarest lexeme's postings miss no match; each is read through the primary key
  // and matched exactly as above.
  return tx`${queries}, rarest AS MATERIALIZED (
      SELECT l.lexeme FROM unnest(tsvector_to_array(to_tsvector('english', ${s.text}))) AS l(lexeme)
      ORDER BY (SELECT coalesce(max(docs), 0) FROM memory_term_stats st
                WHERE st.org_id = ${orgId} AND st.agent_id = ${agentId}
                  AND st.term = l.lexeme), l.lexeme
      LIMIT 1
    ), whole AS MATERIALIZED (
      SELECT ${recallColumns(tx)}, ${score}
      FROM rarest, q, LATERAL (
        SELECT memory_id AS holding, version AS holding_version FROM memory_terms p
        WHERE p.org_id = ${orgId} AND p.agent_id = ${agentId} AND p.term = rarest.lexeme
      ) AS holder, LATERAL (
        SELECT ${recallColumns(tx)}, search_document FROM memories
        WHERE ${candidateFilter(tx, s.filter)} AND memory_id = holder.holding
          AND version = holder.holding_version
      ) AS m
      WHERE m.search_document @@ q.query
      ORDER BY score DESC, valid_from DESC, memory_id
      LIMIT ${s.limit}
    )`;
}

/**
 * BM25 (k1 1.2, b 0.75) over the agent's memories, from the postings of sql/0430: term frequency,
 * document length against the agent's average, idf from the document frequencies. Words sharing a
 * term count once, at their highest weight. Without a narrowing filter the whole agent is ranked:
 * N, the average length and each term's document frequency come from memory_term_stats, and each
 * term's postings are read best first up to POSTINGS_PER_TERM. Under a filter (TEMPORAL's window, a
 * memory type…) the `scanLimit` most recent memories that pass it are the collection: N and the
 * document frequencies are counted over them (the average length stays the agent's).
 */
export function bm25Ctes(tx: Tx, s: AnyWordSearch) {
  const { orgId, agentId } = s.filter;
  // k1 = 1.2, b = 0.75 (the baseline's, bench/lib/bm25-plain.ts).
  const tf = tx`p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.doc_len / totals.avgdl))`;
  const typed: ReturnType<Tx> = tx`SELECT t.term, max(w.weight) AS weight
      FROM unnest(${s.words}::text[], ${s.weights}::real[]) AS w(word, weight),
           LATERAL svc_bm25_terms(w.word, NULL) AS t
      GROUP BY t.term`;
  const common = tx`totals AS MATERIALIZED (
      SELECT docs, total_len::float8 / greatest(docs, 1) AS avgdl FROM memory_term_stats
      WHERE org_id = ${orgId} AND agent_id = ${agentId} AND term = ''
    ), terms AS MATERIALIZED (
      ${s.feedback ? withFeedbackTerms(tx, s.filter, typed, s.feedback) : typed}
    )`;
  if (!narrowsCandidates(s.filter)) {
    return tx`${common}, weighted AS MATERIALIZED (
      SELECT terms.term, terms.weight * ln(1 + (totals.docs - st.docs + 0.5) / (st.docs + 0.5)) AS idf
      FROM terms, totals, LATERAL (
        SELECT docs FROM memory_term_stats
        WHERE org_id = ${orgId} AND agent_id = ${agentId} AND term = terms.term
        LIMIT 1
      ) AS st
      WHERE st.docs > 0
    ), scored AS MATERIALIZED (
      SELECT p.memory_id, p.version, sum(weighted.idf * ${tf}) AS raw
      FROM weighted, totals, LATERAL (
        SELECT memory_id, version, tf, doc_len FROM memory_terms
        WHERE org_id = ${orgId} AND agent_id = ${agentId} AND term = weighted.term
        ORDER BY impact DESC
        LIMIT ${POSTINGS_PER_TERM}
      ) AS p
      GROUP BY p.memory_id, p.version
    )`;
  }
  return tx`${common}, newest AS MATERIALIZED (
      SELECT memory_id FROM memories WHERE ${candidateFilter(tx, s.filter)}
      ORDER BY valid_from DESC
      LIMIT ${s.scanLimit}
    ), posted AS MATERIALIZED (
      SELECT p.memory_id, p.version, p.term, p.tf, p.doc_len
      FROM terms, LATERAL (
        SELECT memory_id, version, term, tf, doc_len FROM memory_terms
        WHERE org_id = ${orgId} AND agent_id = ${agentId} AND term = terms.term
      ) AS p
      WHERE p.memory_id IN (SELECT memory_id FROM newest)
    ), weighted AS MATERIALIZED (
      SELECT terms.term, terms.weight * ln(1 + ((SELECT count(*) FROM newest) - count(*) + 0.5) / (count(*) + 0.5)) AS idf
      FROM posted JOIN terms USING (term)
      GROUP BY terms.term, terms.weight
    ), scored AS MATERIALIZED (
      SELECT p.memory_id, p.version, sum(weighted.idf * ${tf}) AS raw
      FROM posted AS p JOIN weighted USING (term), totals
      GROUP BY p.memory_id, p.version
    )`;
}

/**
 * BM25's memories, best first: ranked from the postings, then read by primary key until `limit`
 * pass the filter and are not `excluded`. The lookup is fenced (OFFSET 0) so that no plan, however
 * stale its statistics, reads it through the agent's index instead. `raw` is the BM25 score;
 * `score` maps it below `ceiling`.
 */
export function bm25Ranked(
  tx: Tx,
  s: AnyWordSearch,
  excluded: ReturnType<Tx>,
  limit: ReturnType<Tx>,
  ceiling: number,
) {
  return tx`
    SELECT m.*, (${ceiling} * scored.raw / (scored.raw + 1))::real AS score, scored.raw
    FROM (SELECT memory_id, version, raw FROM scored ORDER BY raw DESC, memory_id) AS scored, LATERAL (
      SELECT ${recallColumns(tx)} FROM (
        SELECT * FROM memories
        WHERE org_id = ${s.filter.orgId} AND memory_id = scored.memory_id AND version = scored.version
        OFFSET 0
      ) AS memories
      WHERE ${candidateFilter(tx, s.filter)} AND NOT (${excluded})
    ) AS m
    ORDER BY scored.raw DESC, scored.memory_id
    LIMIT ${limit}`;
}

/** BM25 alone, leaving out `excludeIds` (LEXICAL; TEMPORAL ranks a window's memories with it). */
export function anyWordSearch(tx: Tx, s: AnyWordSearch & { excludeIds: string[] }) {
  return tx<Array<RecallRow & { raw: number }>>`WITH ${bm25Ctes(tx, s)}
    ${bm25Ranked(tx, s, tx`memory_id = ANY(${s.excludeIds}::text[])`, tx`${s.limit}`, 1)}`;
}

type TieredRow = RecallRow & { tier: 1 | 2 };

/**
 * Both tiers in one statement, so one round trip: the all-words tier's `limit` best, then as many
 * of the any-word tier (`anyWords.limit` at most) as fill `limit`, leaving out what the first
 * found. When the first tier fills `limit`, the second's LIMIT is 0 and PostgreSQL never runs it.
 */
export function allThenAnyWords(
  tx: Tx,
  s: FullTextSearch,
  anyWords: Omit<AnyWordSearch, "filter">,
) {
  const second = { ...anyWords, filter: s.filter };
  return tx<Array<TieredRow & { sort_key: number }>>`
    WITH ${allWordsCtes(tx, s)}, ${bm25Ctes(tx, second)}
    SELECT ${recallColumns(tx)}, score, 1 AS tier, score::float8 AS sort_key FROM whole
    UNION ALL
    SELECT ${recallColumns(tx)}, score, 2, raw FROM (
      ${bm25Ranked(tx, second, tx`memory_id IN (SELECT memory_id FROM whole)`, tx`(SELECT least(${anyWords.limit}::int, ${s.limit}::int - count(*)) FROM whole)`, 0.3)}
    ) AS partial
    ORDER BY tier, sort_key DESC, valid_from DESC, memory_id`;
}

export type TrigramSearch = {
  filter: RecallFilterInput;
  text: string;
  excludeIds: string[];
  limit: number;
  /**
   * word_similarity is costly per row: only the agent's most recent `scanLimit` memories are
   * compared.
   */
  scanLimit: number;
};

export async function setTrigramThreshold(tx: Tx, threshold: number): Promise<void> {
  await tx`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(threshold)}, true)`;
}

/**
 * word_similarity over the agent's most recent memories; scores are scaled to [0, 0.3] so full-text
 * hits rank first.
 */
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
