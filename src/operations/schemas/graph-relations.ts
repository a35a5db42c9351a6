// GET/PUT /v1/graph/relations shapes.
import { t } from "elysia";

export const RelationSchema = t.Object(
  {
    relation: t.String(),
    functional: t.Boolean({
      description: "Single-valued per subject: a new object supersedes the old one",
    }),
    transitive: t.Boolean(),
    inverse: t.Union([t.String(), t.Null()]),
    source: t.Union([t.Literal("default"), t.Literal("tenant")], {
      description: "default: the built-in table; tenant: your override",
    }),
    description: t.Union([t.String(), t.Null()]),
  },
  { additionalProperties: false },
);

export const RelationUpdateBody = t.Object(
  {
    relation: t.String({ minLength: 1, maxLength: 64, description: "UPPER_SNAKE relation name" }),
    functional: t.Optional(t.Boolean()),
    transitive: t.Optional(t.Boolean()),
    inverse: t.Optional(t.Union([t.String({ minLength: 1, maxLength: 64 }), t.Null()])),
    reset: t.Optional(
      t.Boolean({ description: "true: drop your override and return to the built-in flags" }),
    ),
  },
  { additionalProperties: false },
);
