// PUT /v1/graph/relations: override one relation's flags for this tenant, or reset it (always on; they matter once distill runs).
import { Elysia } from "elysia";
import type { Deps } from "../../../app/deps";
import { putRelation } from "../../../domain/graph/relation-overrides";
import { actorOf } from "../../request-context";
import { authedErrors } from "../../../operations/schemas/common";
import { RelationSchema, RelationUpdateBody } from "../../../operations/schemas/graph-relations";

export const putRelationRoute = (deps: Deps) =>
  new Elysia().put(
    "/v1/graph/relations",
    ({ request, body }) => putRelation(deps.db, actorOf(request), body),
    {
      parse: "json",
      body: RelationUpdateBody,
      response: { 200: RelationSchema, ...authedErrors(400, 413, 415) },
      detail: {
        tags: ["Graph"],
        summary: "Override a relation's flags",
        description:
          "Sets functional (and transitive, inverse) for one relation in your tenant; reset: true returns to the built-in flags. Applies to facts distilled afterwards. Audited as relation_type.update.",
      },
    },
  );
