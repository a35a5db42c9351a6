// A tenant's own relation flags (GET/PUT /v1/graph/relations): which relations are functional, so a
// new object supersedes the old one at distill time. Validated, audited, tenant-scoped like any
// write.
import { deleteRelationOverride, upsertRelationOverride } from "../../data/queries/graph/relations";
import type { Database } from "../../data/pools";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import type { Actor } from "../actor";
import { recordAudit } from "../audit/record";
import { validationFailed, type FieldProblem } from "../../lib/errors";
import { effectiveRelations, type EffectiveRelation } from "./relation-types";
import { DEFAULT_RELATION_TYPES } from "./relations";

const RELATION = /^[A-Z][A-Z0-9_]{0,63}$/;
const RESERVED = new Set(["SUMMARIZES"]);

export type RelationUpdate = {
  relation: string;
  functional?: boolean;
  transitive?: boolean;
  inverse?: string | null;
  reset?: boolean;
};

export async function listRelations(db: Database, actor: Actor): Promise<EffectiveRelation[]> {
  const table = await withTenantRead(db, actor.orgId, (tx) => effectiveRelations(tx, actor.orgId));
  return [...table.values()].sort((a, b) => (a.relation < b.relation ? -1 : 1));
}

function check(u: RelationUpdate): void {
  const problems: FieldProblem[] = [];
  if (!RELATION.test(u.relation))
    problems.push({
      path: "relation",
      message: "must be UPPER_SNAKE: a capital letter, then capitals, digits or _ (at most 64)",
    });
  else if (RESERVED.has(u.relation))
    problems.push({
      path: "relation",
      message: `${u.relation} is reserved for refine's summaries`,
    });
  if (u.inverse !== undefined && u.inverse !== null && !RELATION.test(u.inverse))
    problems.push({ path: "inverse", message: "must be UPPER_SNAKE or null" });
  if (
    u.reset === true &&
    (u.functional !== undefined || u.transitive !== undefined || u.inverse !== undefined)
  )
    problems.push({ path: "reset", message: "reset takes no other flag" });
  if (u.reset !== true && u.functional === undefined)
    problems.push({
      path: "functional",
      message: "is required (or send reset: true to return to the built-in flags)",
    });
  if (problems.length > 0) throw validationFailed(problems);
}

export async function putRelation(
  db: Database,
  actor: Actor,
  u: RelationUpdate,
): Promise<EffectiveRelation> {
  check(u);
  return withTenant(db, actor.orgId, async (tx) => {
    const builtIn = DEFAULT_RELATION_TYPES[u.relation];
    if (u.reset) await deleteRelationOverride(tx, actor.orgId, u.relation);
    else
      await upsertRelationOverride(tx, actor.orgId, {
        relation: u.relation,
        functional: u.functional!,
        transitive: u.transitive ?? builtIn?.transitive ?? false,
        inverse: u.inverse === undefined ? (builtIn?.inverse ?? null) : u.inverse,
      });
    const now = (await effectiveRelations(tx, actor.orgId)).get(u.relation) ?? {
      relation: u.relation,
      functional: false,
      transitive: false,
      inverse: null,
      source: "default" as const,
      description: null,
    };
    await recordAudit(tx, actor, {
      operation: "relation_type.update",
      targetIds: [u.relation],
      detail: {
        functional: now.functional,
        transitive: now.transitive,
        inverse: now.inverse,
        source: now.source,
      },
    });
    return now;
  });
}
