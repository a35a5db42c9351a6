// Turns the validator's errors into field problems written from the schema itself: "must be an
// integer from 1 to 100", "is required", "must be one of: AUTO, VECTOR, …". Every route's schema
// gets the same plain words without writing any message by hand.
import { ValueErrorType } from "@sinclair/typebox/errors";
import type { FieldProblem } from "../lib/errors";
import { describeSchema } from "../lib/validation/describe-schema";

type Issue = { type?: number; path?: string; schema?: Record<string, unknown>; value?: unknown };

/**
 * Elysia's coerced query numbers fail as a nameless "property"; find the parameter by its value.
 */
function coercedQueryPath(error: unknown, request: Request): string {
  const value = String((error as { value?: unknown }).value);
  for (const [name, raw] of new URL(request.url).searchParams)
    if (raw === value) return `query:/${name}`;
  return "query:/";
}

export function messageFor(issue: Issue): string {
  if (issue.type === ValueErrorType.ObjectRequiredProperty) return "is required";
  if (issue.type === ValueErrorType.ObjectAdditionalProperties) return "is not a known field";
  return issue.schema ? `must be ${describeSchema(issue.schema)}` : "is invalid";
}

export function validationProblems(error: unknown, request: Request): FieldProblem[] {
  const issues = (error as { all?: Issue[] }).all ?? [];
  const where = (error as { type?: string }).type;
  if (where === "property")
    return [
      {
        path: coercedQueryPath(error, request),
        message: issues[0] ? messageFor(issues[0]) : "is invalid",
      },
    ];
  const byPath = new Map<string, string>();
  for (const issue of issues) {
    const path = `${where && where !== "body" ? `${where}:` : ""}${issue.path || "/"}`;
    const message = messageFor(issue);
    // The first word on a path wins, except that "is required" beats the type complaint that
    // follows it.
    if (!byPath.has(path) || message === "is required") byPath.set(path, message);
  }
  const problems = [...byPath].map(([path, message]) => ({ path, message }));
  return problems.length > 0 ? problems : [{ path: "/", message: "is invalid" }];
}
