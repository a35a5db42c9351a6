// MATCH patterns as a join chain in a fixed order, like a graph engine's expand: each node a
// `memos` alias, each fixed relationship an `edges` alias (undirected: a UNION ALL of both
// orientations, so each branch keeps its index), each variable-length relationship a LATERAL
// bounded walk from the node before it. Patterns go best-anchored first, each from its
// better-anchored end (the planner's own join search over a dozen relations took seconds).
// Relationships of one MATCH are pairwise distinct.
import type { CheckedCypher } from "./check";
import { hopRange } from "./check";
import type { Expr, MatchClause, NodePattern, Pattern, PropertyMap, RelPattern } from "./ast";
import { compare, compileExpr, propertyOf } from "./expressions";
import {
  edgeScope,
  memoScope,
  reverseArray,
  upperNames,
  joinFrags,
  type Ctx,
  type Frag,
} from "./fragments";
import { walkItem } from "./walk";

export type MatchSql = { from: Frag[]; where: Frag[] };

type Deferred = { props: PropertyMap; target: Frag; kind: "node" | "rel" };
type RelHandle = { edgeId: Frag } | { trail: Frag };

const EDGE_SELECT = (
  ctx: Ctx,
  e: Frag,
) => ctx.tx`${e}.edge_id, ${e}.src_memo_id, ${e}.dst_memo_id, ${e}.relation, ${e}.fact, ${e}.properties,
  ${e}.origin, ${e}.confidence, ${e}.weight, ${e}.mention_count, ${e}.valid_at, ${e}.invalid_at, ${e}.created_at, ${e}.expired_at`;

export function compileMatches(ctx: Ctx, checked: CheckedCypher): MatchSql {
  const out: MatchSql = { from: [], where: [] };
  const deferred: Deferred[] = [];
  for (const clause of checked.query.matches) placeClause(ctx, checked, clause, out, deferred);
  for (const d of deferred) {
    for (const { key, value } of d.props.entries) {
      const column = propertyOf(
        ctx,
        { t: "entity", binding: { kind: d.kind, alias: d.target } },
        key.name,
      );
      out.where.push(compare(ctx, "=", column, compileExpr(ctx, value)));
    }
  }
  return out;
}

function placeClause(
  ctx: Ctx,
  checked: CheckedCypher,
  clause: MatchClause,
  out: MatchSql,
  deferred: Deferred[],
): void {
  const rels: RelHandle[] = [];
  const anchoredByWhere = clause.where ? equalityAnchors(clause.where) : new Set<string>();
  // Patterns in order of how well they are anchored, re-scored as each one binds its variables.
  const pending = [...clause.patterns];
  while (pending.length > 0) {
    const score = (p: Pattern) =>
      Math.max(
        anchorScore(ctx, p.start, anchoredByWhere),
        anchorScore(ctx, p.steps.at(-1)?.node ?? p.start, anchoredByWhere),
      );
    const best = pending.reduce((b, p) => (score(p) > score(b) ? p : b));
    pending.splice(pending.indexOf(best), 1);
    placePattern(ctx, checked, best, out, deferred, rels, anchoredByWhere);
  }
  for (let i = 0; i < rels.length; i++) {
    for (let j = i + 1; j < rels.length; j++) out.where.push(distinctRels(ctx, rels[i]!, rels[j]!));
  }
}

/**
 * Variables pinned by a top-level conjunct of WHERE: var.key = constant, id(var) = constant, or …
 * IN constant.
 */
function equalityAnchors(where: Expr): Set<string> {
  const anchors = new Set<string>();
  const constant = (e: Expr) => e.kind === "literal" || e.kind === "param";
  const pinned = (e: Expr): string | null =>
    e.kind === "property" && e.target.kind === "variable"
      ? e.target.name
      : e.kind === "call" &&
          (e.name === "id" || e.name === "elementId") &&
          e.args[0]?.kind === "variable"
        ? e.args[0].name
        : null;
  const visit = (e: Expr) => {
    if (e.kind === "logic" && e.op === "and") {
      visit(e.left);
      visit(e.right);
      return;
    }
    if (e.kind === "compare" && e.op === "=") {
      const v = constant(e.right) ? pinned(e.left) : constant(e.left) ? pinned(e.right) : null;
      if (v) anchors.add(v);
    }
    if (e.kind === "in" && constant(e.right)) {
      const v = pinned(e.left);
      if (v) anchors.add(v);
    }
  };
  visit(where);
  return anchors;
}

function distinctRels(ctx: Ctx, a: RelHandle, b: RelHandle): Frag {
  const { tx } = ctx;
  if ("edgeId" in a && "edgeId" in b) return tx`${a.edgeId} <> ${b.edgeId}`;
  if ("edgeId" in a && "trail" in b) return tx`${a.edgeId} <> ALL(${b.trail})`;
  if ("trail" in a && "edgeId" in b) return tx`${b.edgeId} <> ALL(${a.trail})`;
  return tx`NOT (${(a as { trail: Frag }).trail} && ${(b as { trail: Frag }).trail})`;
}

/**
 * How well a node pins down where to start: bound already, then equality-constrained, then
 * labelled.
 */
function anchorScore(ctx: Ctx, node: NodePattern, anchoredByWhere: Set<string>): number {
  if (node.variable && ctx.bindings.has(node.variable.name)) return 100;
  const inWhere = node.variable && anchoredByWhere.has(node.variable.name) ? 10 : 0;
  return inWhere + (node.properties?.entries.length ?? 0) * 10 + (node.labels.length > 0 ? 1 : 0);
}

const flip = (rel: RelPattern): RelPattern => ({
  ...rel,
  direction: rel.direction === "out" ? "in" : rel.direction === "in" ? "out" : "both",
});

function placePattern(
  ctx: Ctx,
  checked: CheckedCypher,
  pattern: Pattern,
  out: MatchSql,
  deferred: Deferred[],
  rels: RelHandle[],
  anchoredByWhere: Set<string>,
): void {
  const { tx } = ctx;
  let nodes = [pattern.start, ...pattern.steps.map((s) => s.node)];
  let relPatterns = pattern.steps.map((s) => s.rel);
  const reversed =
    anchorScore(ctx, nodes.at(-1)!, anchoredByWhere) > anchorScore(ctx, nodes[0]!, anchoredByWhere);
  if (reversed) {
    nodes = nodes.reverse();
    relPatterns = relPatterns.reverse().map(flip);
  }
  let left = placeNode(ctx, nodes[0]!, out, deferred);
  const memoIds: Frag[] = [tx`ARRAY[${left}.memo_id]`];
  const edgeIds: Frag[] = [];
  const hops: Frag[] = [];
  relPatterns.forEach((rel, i) => {
    const range = hopRange(rel, checked.maxHops);
    const alias = ctx.nextAlias(range ? "w" : "e");
    let walkEnd: Frag | null = null;
    if (range) {
      out.from.push(tx`LATERAL (${walkItem(ctx, rel, left, range)}) AS ${alias}`);
      if (rel.variable) ctx.bindings.set(rel.variable.name, { kind: "walk", alias, reversed });
      rels.push({ trail: tx`${alias}.trail` });
      edgeIds.push(tx`${alias}.trail`);
      memoIds.push(tx`${alias}.nodes[2:]`);
      hops.push(tx`cardinality(${alias}.trail)`);
      walkEnd = tx`${alias}.end_id`;
    } else {
      placeFixedRel(ctx, rel, alias, left, out, deferred);
      rels.push({ edgeId: tx`${alias}.edge_id` });
      edgeIds.push(tx`ARRAY[${alias}.edge_id]`);
      hops.push(tx`1`);
    }
    const right = placeNode(ctx, nodes[i + 1]!, out, deferred);
    if (walkEnd) out.where.push(tx`${right}.memo_id = ${walkEnd}`);
    else
      out.where.push(
        rel.direction === "both"
          ? tx`${alias}.to_id = ${right}.memo_id`
          : tx`${alias}.${tx(rel.direction === "out" ? "dst_memo_id" : "src_memo_id")} = ${right}.memo_id`,
      );
    if (!range) memoIds.push(tx`ARRAY[${right}.memo_id]`);
    left = right;
  });
  if (pattern.pathVariable) {
    const nodeArray = joinFrags(tx, memoIds, "||");
    const edgeArray = edgeIds.length > 0 ? joinFrags(tx, edgeIds, "||") : tx`ARRAY[]::text[]`;
    ctx.bindings.set(pattern.pathVariable.name, {
      kind: "path",
      memoIds: reversed ? reverseArray(tx, tx`(${nodeArray})`) : tx`(${nodeArray})`,
      edgeIds: reversed ? reverseArray(tx, tx`(${edgeArray})`) : tx`(${edgeArray})`,
      hops: hops.length > 0 ? tx`(${joinFrags(tx, hops, "+")})` : tx`0`,
    });
  }
}

function placeNode(ctx: Ctx, node: NodePattern, out: MatchSql, deferred: Deferred[]): Frag {
  const { tx } = ctx;
  const bound = node.variable ? ctx.bindings.get(node.variable.name) : undefined;
  let alias: Frag;
  if (bound && bound.kind === "node") {
    alias = bound.alias;
  } else {
    alias = ctx.nextAlias("n");
    out.from.push(tx`memos AS ${alias}`);
    out.where.push(memoScope(ctx, alias));
    if (node.variable) ctx.bindings.set(node.variable.name, { kind: "node", alias });
  }
  if (node.labels.length > 0)
    out.where.push(tx`${alias}.memo_type = ANY(${upperNames(node.labels)}::text[])`);
  if (node.properties) deferred.push({ props: node.properties, target: alias, kind: "node" });
  return alias;
}

function placeFixedRel(
  ctx: Ctx,
  rel: RelPattern,
  alias: Frag,
  left: Frag,
  out: MatchSql,
  deferred: Deferred[],
): void {
  const { tx } = ctx;
  const types = rel.types.length > 0 ? upperNames(rel.types) : null;
  if (rel.direction === "both") {
    const ue = tx`ue`;
    const typed = types ? tx`AND ue.relation = ANY(${types}::text[])` : tx``;
    // LATERAL, with the left node in each branch: both are index scans from that node. As a plain
    // subquery joined on from_id the planner hashed every edge of the relation (seconds on a big
    // graph).
    out.from.push(tx`LATERAL (SELECT ${EDGE_SELECT(ctx, ue)}, ue.src_memo_id AS from_id, ue.dst_memo_id AS to_id FROM edges ue
        WHERE ${edgeScope(ctx, ue)} ${typed} AND ue.src_memo_id = ${left}.memo_id
      UNION ALL SELECT ${EDGE_SELECT(ctx, ue)}, ue.dst_memo_id, ue.src_memo_id FROM edges ue
        WHERE ${edgeScope(ctx, ue)} ${typed} AND ue.dst_memo_id = ${left}.memo_id AND ue.src_memo_id <> ue.dst_memo_id) AS ${alias}`);
  } else {
    out.from.push(tx`edges AS ${alias}`);
    out.where.push(edgeScope(ctx, alias));
    if (types) out.where.push(tx`${alias}.relation = ANY(${types}::text[])`);
    out.where.push(
      tx`${alias}.${tx(rel.direction === "out" ? "src_memo_id" : "dst_memo_id")} = ${left}.memo_id`,
    );
  }
  if (rel.variable) ctx.bindings.set(rel.variable.name, { kind: "rel", alias });
  if (rel.properties) deferred.push({ props: rel.properties, target: alias, kind: "rel" });
}
