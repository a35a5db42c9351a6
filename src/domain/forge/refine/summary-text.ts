// The offline (extractive) summary of a cluster: its best-known members by name and its strongest facts,
// quoted as stored. Deterministic, so a cluster always reads the same.
import type { ClusterEdge, ClusterMemo } from "../../../data/queries/refine-summarize";

export const SUMMARY_FACTS = 5;
const NAMED_MEMBERS = 3;

export type ClusterSummary = { name: string; text: string; quoted: ClusterEdge[] };

export function extractiveSummary(members: ClusterMemo[], edges: ClusterEdge[]): ClusterSummary {
  const top = [...members].sort((a, b) => b.mention_count - a.mention_count || (a.name < b.name ? -1 : 1));
  const named = top.slice(0, NAMED_MEMBERS).map((m) => m.name);
  const more = members.length - named.length;
  const name = `${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
  const quoted = [...edges].sort((a, b) => b.weight * b.confidence - a.weight * a.confidence || (a.edge_id < b.edge_id ? -1 : 1)).slice(0, SUMMARY_FACTS);
  const facts = quoted.map((e) => e.fact.replace(/[.\s]+$/, "")).join(". ");
  return { name, text: `${members.length} related memos: ${name}.${facts ? ` ${facts}.` : ""}`, quoted };
}
