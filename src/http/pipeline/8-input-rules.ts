// Layer 8, input rules.
// The request rules every route passes before validation, in one place: (1) every string in the
// body, query and path is storable by PostgreSQL (no NUL, no unpaired surrogates; field names too)
// and the body nests at most SVC_JSON_MAX_DEPTH levels; (2) every free-form JSON value in the body
// is at most SVC_JSON_FREEFORM_MAX_BYTES; (3) closed objects carry no unknown fields; (4) a JSON
// body's number fields hold numbers, not numeric strings. Each failure is a 422 naming the field.
// The walk in (1) is iterative, so no later recursion ever meets an unbounded body.
import { Elysia } from "elysia";
import type { Config } from "../../config/schema";
import { validationFailed, type FieldProblem } from "../../lib/errors";
import { freeFormProblems } from "../../lib/validation/free-form";
import { inspectInput } from "../../lib/validation/input-walk";
import { routeKey, type RouteSchemas } from "../route-schemas";
import { unknownFields } from "../strict-body";
import { stringsForNumbers } from "../strict-numbers";

type Limits = Pick<
  Config,
  "SVC_JSON_MAX_DEPTH" | "SVC_JSON_FREEFORM_MAX_BYTES" | "MEMORY_METADATA_MAX_BYTES"
>;

/** Form fields are strings by nature; their numbers are read from them. */
const isForm = (request: Request) =>
  (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");

export function inputRulesLayer(schemas: RouteSchemas, limits: Limits) {
  const freeFormMax = Math.max(
    limits.SVC_JSON_FREEFORM_MAX_BYTES,
    limits.MEMORY_METADATA_MAX_BYTES,
  );
  return new Elysia({ name: "svc.input-rules" }).onTransform(
    { as: "global" },
    ({ request, route, body, query, params }) => {
      const problems: FieldProblem[] = [
        ...inspectInput(params, "params:", limits.SVC_JSON_MAX_DEPTH),
        ...inspectInput(query, "query:", limits.SVC_JSON_MAX_DEPTH),
        ...inspectInput(body, "", limits.SVC_JSON_MAX_DEPTH),
      ];
      if (problems.length > 0) throw validationFailed(problems);
      const schema = schemas.get(routeKey(request.method, route))?.body;
      if (!schema) return;
      const shapeProblems = [
        ...freeFormProblems(schema, body, freeFormMax),
        ...unknownFields(schema, body),
        ...(isForm(request) ? [] : stringsForNumbers(schema, body)),
      ];
      if (shapeProblems.length > 0) throw validationFailed(shapeProblems);
    },
  );
}
