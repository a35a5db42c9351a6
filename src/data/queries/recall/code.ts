// CODE recall: identifier tokens (svc_code_tokens, sql/0110) over the agent's memories marked as
// code, from their postings (memory_code_tokens, sql/0440: a btree that row-level security can
// use).
import type { Tx } from "../../pools";
import { candidateFilter, recallColumns, type RecallFilterInput, type RecallRow } from "./common";

/** Below this many code memories every query token is read, however common. */
const SMALL_AGENT = 1_000;

export type CodeSearch = { filter: RecallFilterInput; text: string; limit: number };

/**
 * The query is tokenised by the same SQL function as the documents; English stopwords ("where",
 * "is") are dropped from it. Each query token a memory holds adds its idf (BM25's, over the agent's
 * code memories: the empty token's postings count them), so a rare identifier outweighs a common
 * word. Tokens in more than half of the memories carry almost no idf and are not read beyond
 * SMALL_AGENT code memories (on a 6,000-function agent "self" or "return" would be most of the
 * postings). Score = the matched share of the query's idf, in [0, 1]. Candidates are ranked from
 * the postings alone, then read by primary key, in that order, until `limit` pass the recall's
 * filter.
 */
export function codeSearch(tx: Tx, s: CodeSearch) {
  const { orgId, agentId } = s.filter;
  return tx<RecallRow[]>`
    WITH q AS MATERIALIZED (
      SELECT DISTINCT tok FROM unnest(svc_code_tokens(${s.text}, '{}'::jsonb)) AS tok
      WHERE length(tok) <= 200 AND to_tsvector('english', tok) <> ''::tsvector
    ), total AS MATERIALIZED (
      SELECT count(*) AS n FROM memory_code_tokens WHERE org_id = ${orgId} AND agent_id = ${agentId} AND token = ''
    ), df AS MATERIALIZED (
      SELECT q.tok, (SELECT count(*) FROM memory_code_tokens p
        WHERE p.org_id = ${orgId} AND p.agent_id = ${agentId} AND p.token = q.tok) AS n
      FROM q
    ), idf AS MATERIALIZED (
      SELECT df.tok, df.n, ln(1 + (total.n - df.n + 0.5) / (df.n + 0.5)) AS idf FROM df, total
    ), scored AS (
      SELECT p.memory_id, sum(idf.idf) AS raw
      FROM idf, total, LATERAL (
        SELECT memory_id FROM memory_code_tokens
        WHERE org_id = ${orgId} AND agent_id = ${agentId} AND token = idf.tok
      ) AS p
      WHERE idf.n > 0 AND (idf.n * 2 <= total.n + 1 OR total.n <= ${SMALL_AGENT})
      GROUP BY p.memory_id
    )
    SELECT m.*, (scored.raw / greatest((SELECT sum(idf) FROM idf), 1e-9))::real AS score
    FROM (SELECT * FROM scored ORDER BY raw DESC, memory_id) AS scored, LATERAL (
      SELECT ${recallColumns(tx)} FROM memories
      WHERE ${candidateFilter(tx, s.filter)} AND memory_id = scored.memory_id AND svc_marks_code(metadata)
      LIMIT 1
    ) AS m
    ORDER BY scored.raw DESC, scored.memory_id
    LIMIT ${s.limit}`;
}
