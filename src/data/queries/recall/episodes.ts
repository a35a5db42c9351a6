// AUTO's episode signal (domain/recall/pipeline/episode-signal.ts): the episodes of the loose
// candidates (the agent's current memories sharing one occurred_at: a session stored one memory
// per turn) scored as whole documents by BM25 against the query's words, best first. Episode
// frequencies come from the members' postings of the query's terms only, each member's length from
// one of its postings (memory_terms_by_memory, sql/0600), idf from the agent's memory-level
// statistics (memory_term_stats), length against the average of the scored episodes. Members are
// read through memories_episode_order (sql/0560) and pass the recall's filters. Tenant
// transactions only.
import type { Tx } from "../../pools";
import { candidateFilter, type RecallFilterInput } from "./common";

export type EpisodeScore = { occurred_at: Date; score: number };

export type EpisodeSearch = {
  filter: RecallFilterInput;
  /** The candidates whose episodes are scored. */
  hits: string[];
  /** The query's words and weights, tokenised as documents are (svc_bm25_terms, sql/0430). */
  words: string[];
  weights: number[];
  /**
   * An episode with more members than this is no session (a bulk import's one date), nor is one of
   * a single memory (nothing to gather): both are skipped.
   */
  maxMembers: number;
  limit: number;
};

export function bestEpisodes(tx: Tx, s: EpisodeSearch) {
  const { orgId, agentId } = s.filter;
  return tx<EpisodeScore[]>`
    WITH terms AS MATERIALIZED (
      SELECT t.term, max(w.weight) AS weight
      FROM unnest(${s.words}::text[], ${s.weights}::real[]) AS w(word, weight),
           LATERAL svc_bm25_terms(w.word, NULL) AS t
      GROUP BY t.term
    ), totals AS MATERIALIZED (
      SELECT docs FROM memory_term_stats
      WHERE org_id = ${orgId} AND agent_id = ${agentId} AND term = ''
    ), weighted AS MATERIALIZED (
      SELECT terms.term,
        terms.weight * ln(1 + (totals.docs - st.docs + 0.5) / (st.docs + 0.5)) AS idf
      FROM terms, totals, LATERAL (
        SELECT docs FROM memory_term_stats
        WHERE org_id = ${orgId} AND agent_id = ${agentId} AND term = terms.term
        LIMIT 1
      ) AS st
      WHERE st.docs > 0
    ), episodes AS MATERIALIZED (
      SELECT DISTINCT occurred_at FROM memories
      WHERE org_id = ${orgId} AND agent_id = ${agentId} AND valid_to IS NULL
        AND memory_id = ANY(${s.hits}::text[]) AND occurred_at <> created_at
    ), members AS MATERIALIZED (
      SELECT e.occurred_at, m.memory_id, m.version, count(*) OVER (PARTITION BY e.occurred_at) AS n
      FROM episodes e, LATERAL (
        SELECT memory_id, version FROM memories
        WHERE ${candidateFilter(tx, s.filter)} AND occurred_at = e.occurred_at
        ORDER BY memory_id
        LIMIT ${s.maxMembers + 1}::int
      ) AS m
    ), scored AS MATERIALIZED (
      SELECT occurred_at, memory_id, version FROM members
      WHERE n BETWEEN 2 AND ${s.maxMembers}::int
    ), lengths AS MATERIALIZED (
      SELECT sc.occurred_at, sum(one.doc_len)::float8 AS len
      FROM scored sc, LATERAL (
        SELECT doc_len FROM memory_terms
        WHERE org_id = ${orgId} AND memory_id = sc.memory_id AND version = sc.version
        LIMIT 1
      ) AS one
      GROUP BY sc.occurred_at
    ), counts AS MATERIALIZED (
      SELECT sc.occurred_at, p.term, sum(p.tf)::float8 AS tf
      FROM scored sc JOIN memory_terms p
        ON p.org_id = ${orgId} AND p.memory_id = sc.memory_id AND p.version = sc.version
      WHERE p.agent_id = ${agentId} AND p.term IN (SELECT term FROM weighted)
      GROUP BY sc.occurred_at, p.term
    )
    SELECT l.occurred_at,
      sum(w.idf * c.tf * 2.2 / (c.tf + 1.2 * (0.25 + 0.75 * l.len / avgl.len)))::float8 AS score
    FROM counts c JOIN weighted w USING (term) JOIN lengths l USING (occurred_at),
      (SELECT greatest(avg(len), 1) AS len FROM lengths) AS avgl
    GROUP BY l.occurred_at
    ORDER BY score DESC, l.occurred_at
    LIMIT ${s.limit}::int`;
}
