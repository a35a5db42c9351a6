// Writes a GraphWorld as graph rows for one agent in one tenant transaction (the benchmark's
// 50k-edge graph; distilling 10k memories is measured separately): memos, edges, and provenance
// citing the memories that state them. Set-based inserts from arrays, so 50k edges load in seconds.
import type { Database } from "../../src/data/pools";
import { withTenant } from "../../src/data/with-tenant";
import { newId } from "../../src/lib/ids";
import { normalizeName } from "../../src/domain/graph/normalize";
import type { GraphWorld } from "./graph-corpus";

type Edge = { src: string; rel: string; dst: string; fact: string; memory: string };

export async function seedWorldGraph(
  db: Database,
  orgId: string,
  agentId: string,
  w: GraphWorld,
  memoryIds: string[],
): Promise<{ memos: number; edges: number; hubEdges: number }> {
  const memos: Array<{ id: string; type: string; name: string }> = [];
  const idOf = (type: string, names: string[]) =>
    names.map((name) => {
      const id = newId("memo");
      memos.push({ id, type, name });
      return id;
    });
  const people = idOf("PERSON", w.people);
  const orgs = idOf("ORG", w.orgs);
  const cities = idOf("PLACE", w.cities);
  const tools = idOf("TOOL", w.tools);
  const edges: Edge[] = [];
  w.person.forEach((p, i) => {
    const name = w.people[i]!;
    const memory = memoryIds[i]!;
    edges.push({
      src: people[i]!,
      rel: "WORKS_AT",
      dst: orgs[p.org]!,
      fact: `${name} works at ${w.orgs[p.org]}`,
      memory,
    });
    edges.push({
      src: people[i]!,
      rel: "LIVES_IN",
      dst: cities[p.city]!,
      fact: `${name} lives in ${w.cities[p.city]}`,
      memory,
    });
    edges.push({
      src: people[i]!,
      rel: "KNOWS",
      dst: people[p.knows[0]]!,
      fact: `${name} knows ${w.people[p.knows[0]]}`,
      memory,
    });
    if (p.knows[1] !== p.knows[0])
      edges.push({
        src: people[i]!,
        rel: "KNOWS",
        dst: people[p.knows[1]]!,
        fact: `${name} knows ${w.people[p.knows[1]]}`,
        memory,
      });
    edges.push({
      src: people[i]!,
      rel: "USES",
      dst: tools[p.tool]!,
      fact: `${name} uses ${w.tools[p.tool]}`,
      memory,
    });
  });
  w.orgCity.forEach((c, o) =>
    edges.push({
      src: orgs[o]!,
      rel: "LOCATED_IN",
      dst: cities[c]!,
      fact: `${w.orgs[o]} is located in ${w.cities[c]}`,
      memory: memoryIds[o % memoryIds.length]!,
    }),
  );
  const edgeIds = edges.map(() => newId("edge"));
  await withTenant(db, orgId, async (tx) => {
    await tx`INSERT INTO memos (org_id, memo_id, agent_id, memo_type, name, normalized_name, origin, mention_count)
      SELECT ${orgId}, m.id, ${agentId}, m.type, m.name, m.norm, 'extracted', 1
      FROM unnest(${memos.map((m) => m.id)}::text[], ${memos.map((m) => m.type)}::text[], ${memos.map((m) => m.name)}::text[], ${memos.map((m) => normalizeName(m.name))}::text[]) AS m(id, type, name, norm)`;
    for (let at = 0; at < edges.length; at += 10_000) {
      const chunk = edges.slice(at, at + 10_000);
      const ids = edgeIds.slice(at, at + 10_000);
      await tx`INSERT INTO edges (org_id, edge_id, agent_id, src_memo_id, dst_memo_id, relation, fact, origin, confidence, weight)
        SELECT ${orgId}, e.id, ${agentId}, e.src, e.dst, e.rel, e.fact, 'extracted', 0.9, 0.6
        FROM unnest(${ids}::text[], ${chunk.map((e) => e.src)}::text[], ${chunk.map((e) => e.dst)}::text[], ${chunk.map((e) => e.rel)}::text[], ${chunk.map((e) => e.fact)}::text[]) AS e(id, src, dst, rel, fact)`;
      await tx`INSERT INTO edge_sources (org_id, edge_id, memory_id, memory_version, extractor)
        SELECT ${orgId}, s.edge, s.memory, 1, 'bench' FROM unnest(${ids}::text[], ${chunk.map((e) => e.memory)}::text[]) AS s(edge, memory)`;
    }
    await tx`INSERT INTO memo_sources (org_id, memo_id, memory_id, memory_version)
      SELECT ${orgId}, p.memo, p.memory, 1 FROM unnest(${people}::text[], ${memoryIds.slice(0, people.length)}::text[]) AS p(memo, memory)`;
  });
  return {
    memos: memos.length,
    edges: edges.length,
    hubEdges: edges.filter((e) => e.dst === orgs[0]).length,
  };
}
