// PostgreSQL text and jsonb cannot hold U+0000: input strings carrying it are a 422 naming the
// field, found at any depth (keys included), never a database error.
import type { FieldProblem } from "./errors";

export function nulProblems(value: unknown, path: string): FieldProblem[] {
  if (typeof value === "string")
    return value.includes("\u0000")
      ? [{ path, message: "must not contain the NUL character (U+0000)" }]
      : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => nulProblems(item, `${path}/${i}`));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, child]) =>
      key.includes("\u0000")
        ? [
            {
              path: `${path}/${key.replaceAll("\u0000", "\\u0000")}`,
              message: "key must not contain the NUL character (U+0000)",
            },
          ]
        : nulProblems(child, `${path}/${key}`),
    );
  }
  return [];
}
