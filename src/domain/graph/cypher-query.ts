// One CYPHER query end to end: parse, check, and run in its own READ ONLY tenant transaction with
// the configured caps. Every failure a query text can cause is a 422 naming the token (or the
// timeout).
import type { Config } from "../../config/schema";
import type { Database } from "../../data/pools";
import { isQueryTimeout } from "../../data/errors";
import { heavyWork } from "../../data/tenant-share";
import { runCypher, type CypherRows } from "../../data/queries/graph/cypher/run";
import { AppError } from "../../lib/errors";
import { isMemoType, MEMO_TYPE_NAMES } from "./memo-types";
import type { CypherQuery } from "../../data/queries/graph/cypher/ast";
import { checkCypher, type CheckedCypher } from "../../data/queries/graph/cypher/check";
import { CypherError, cypherProblem } from "../../data/queries/graph/cypher/errors";
import { parseCypher } from "../../data/queries/graph/cypher/parser";

export type GraphQuery = {
  orgId: string;
  agentId: string;
  text: string;
  params: Record<string, unknown>;
  asOf: Date | null;
};

export type GraphQueryResult = CypherRows & { notices: string[] };

type CypherConfig = Pick<
  Config,
  "CYPHER_TIMEOUT_MS" | "CYPHER_MAX_HOPS" | "CYPHER_FANOUT" | "CYPHER_WALK_ROWS" | "CYPHER_MAX_ROWS"
>;

/** Parses and checks; a CypherError (with position) or null-free CheckedCypher. */
export function checkedCypher(
  text: string,
  params: Record<string, unknown>,
  config: Pick<Config, "CYPHER_MAX_HOPS">,
): CheckedCypher {
  return checkCypher(parseCypher(text), params, { maxHops: config.CYPHER_MAX_HOPS });
}

/**
 * Labels that name no memo type match nothing; say so rather than return an unexplained empty
 * table.
 */
function labelNotices(query: CypherQuery): string[] {
  const labels = query.matches
    .flatMap((m) => m.patterns)
    .flatMap((p) => [p.start, ...p.steps.map((s) => s.node)])
    .flatMap((n) => n.labels);
  const unknown = [
    ...new Set(labels.map((l) => l.name.toUpperCase()).filter((l) => !isMemoType(l))),
  ];
  return unknown.length === 0
    ? []
    : [
        `label${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} name${unknown.length > 1 ? "" : "s"} no memo type (${MEMO_TYPE_NAMES.join(", ")})`,
      ];
}

export async function queryGraph(
  db: Database,
  config: CypherConfig,
  q: GraphQuery,
): Promise<GraphQueryResult> {
  let checked: CheckedCypher;
  try {
    checked = checkedCypher(q.text, q.params, config);
  } catch (error) {
    if (error instanceof CypherError) throw cypherProblem(error);
    throw error;
  }
  let result: CypherRows;
  try {
    // Unanchored patterns run to CYPHER_TIMEOUT_MS: one of the tenant's heavy slots
    // (tenant-share.ts).
    result = await heavyWork(q.orgId, () =>
      runCypher(db, checked, {
        orgId: q.orgId,
        agentId: q.agentId,
        asOf: q.asOf,
        params: q.params,
        fanout: config.CYPHER_FANOUT,
        walkRows: config.CYPHER_WALK_ROWS,
        maxRows: config.CYPHER_MAX_ROWS,
        timeoutMs: config.CYPHER_TIMEOUT_MS,
      }),
    );
  } catch (error) {
    if (error instanceof CypherError) throw cypherProblem(error);
    if (isQueryTimeout(error)) {
      throw new AppError(
        "validation-failed",
        `/query: the query did not finish within ${config.CYPHER_TIMEOUT_MS} ms (CYPHER_TIMEOUT_MS); anchor it with a label or property, or use fewer hops`,
        {
          fields: {
            errors: [
              { path: "/query", message: `did not finish within ${config.CYPHER_TIMEOUT_MS} ms` },
            ],
          },
        },
      );
    }
    throw error;
  }
  const notices = labelNotices(checked.query);
  if (result.truncated)
    notices.push(
      `the table was cut at ${config.CYPHER_MAX_ROWS} rows (CYPHER_MAX_ROWS); add LIMIT or SKIP to page`,
    );
  return { ...result, notices };
}
