// The tenant's agents (GET /v1/agents, MCP svc://agents): memory counts, activity, graph presence.
import type { Database } from "../../data/pools";
import { listAgentRows, type AgentRow } from "../../data/queries/memories/listing";
import { withTenantRead } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { decodeCursor, encodeCursor } from "../../lib/cursor";

export type AgentPage = { items: AgentRow[]; next_cursor: string | null };

export async function listAgents(
  db: Database,
  actor: Actor,
  q: { limit?: number; cursor?: string },
): Promise<AgentPage> {
  const limit = q.limit ?? 50;
  const after =
    q.cursor === undefined
      ? null
      : decodeCursor(q.cursor, (v) => {
          if (typeof v[0] !== "string" || v.length !== 1) throw new Error("bad agent");
          return { agentId: v[0] };
        }).agentId;
  const rows = await withTenantRead(db, actor.orgId, (tx) => listAgentRows(tx, after, limit + 1));
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const more = rows.length > limit && last;
  return { items: page, next_cursor: more ? encodeCursor([last.agent_id]) : null };
}
