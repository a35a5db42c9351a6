// Schemas shared by many routes: the problem body, pagination, and the standard error responses.
import { t, type TSchema } from "elysia";

export const Problem = t.Object(
  {
    type: t.String({ format: "uri" }),
    title: t.String(),
    status: t.Integer(),
    detail: t.String(),
    instance: t.String(),
    request_id: t.Optional(t.String()),
    errors: t.Optional(t.Array(t.Object({ path: t.String(), message: t.String() }))),
  },
  { description: "RFC 7807 problem details", additionalProperties: true },
);

export const PageQuery = t.Object({
  limit: t.Optional(
    t.Integer({
      minimum: 1,
      maximum: 200,
      default: 50,
      description: "Page size (1–200, default 50)",
    }),
  ),
  cursor: t.Optional(
    t.String({ maxLength: 512, description: "next_cursor from the previous page" }),
  ),
});

/** The error statuses every authenticated route can answer, for the OpenAPI description. */
export function authedErrors(
  ...extra: Array<400 | 404 | 409 | 410 | 413 | 415 | 501>
): Record<number, TSchema> {
  const statuses = [401, 403, 422, 429, 500, 503, ...extra];
  return Object.fromEntries(statuses.map((s) => [s, Problem]));
}

/** The same error statuses as OpenAPI response objects, for routes documented by hand (streams). */
export function authedErrorResponses(...extra: Array<400 | 404 | 409 | 410 | 413 | 415 | 501>) {
  return Object.fromEntries(
    Object.entries(authedErrors(...extra)).map(([status, schema]) => [
      status,
      {
        description: "Problem details (RFC 7807)",
        content: { "application/problem+json": { schema } },
      },
    ]),
  );
}

export const Timestamp = t.Date({ description: "ISO 8601 timestamp" });
export const NullableTimestamp = t.Union([t.Date(), t.Null()]);
