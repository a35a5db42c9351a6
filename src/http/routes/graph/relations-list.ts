// GET /v1/graph/relations: the relation flags in force for this tenant (always on; they matter once distill runs).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../app/deps";
import { listRelations } from "../../../domain/graph/relation-overrides";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { RelationSchema } from "../../../operations/schemas/graph-relations";

export const listRelationsRoute = (deps: Deps) =>
  new Elysia().get(
    "/v1/graph/relations",
    async ({ request }) => ({ relations: await listRelations(deps.db, actorOf(request)) }),
    {
      response: {
        200: t.Object({ relations: t.Array(RelationSchema) }, { additionalProperties: false }),
        ...authedErrors(),
      },
      detail: {
        tags: ["Graph"],
        summary: "Relation flags in force",
        description:
          "The built-in relations with your overrides laid over them. Functional relations supersede: a new object closes the subject's older edge (docs/graph.md).",
      },
    },
  );
