// The rule every string a request carries obeys (body, query, path; field names and values at any
// depth): nothing PostgreSQL cannot store (NUL, unpaired UTF-16 surrogates), and JSON nesting
// within a bound. Iterative on purpose: a body nested a million levels deep must not overflow the
// stack here.
import type { FieldProblem } from "../errors";

/** Why PostgreSQL (text, jsonb) cannot store `s`, or null. */
export function unstorableReason(s: string): string | null {
  if (s.includes("\u0000")) return "must not contain the NUL character (U+0000)";
  if (!s.isWellFormed()) return "must not contain unpaired UTF-16 surrogates (invalid Unicode)";
  return null;
}

/** A field name as it can be shown in a path: control characters and lone surrogates escaped. */
export function printable(s: string): string {
  return s.replace(
    /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

const pointerSegment = (key: string) => printable(key).replace(/~/g, "~0").replace(/\//g, "~1");

/** At most this many problems are collected; one is enough to refuse, a few help the caller. */
const MAX_PROBLEMS = 10;

type Frame = { value: unknown; path: string; depth: number };

/**
 * Problems of `value` under the input rule, with JSON-pointer paths under `root` (e.g. "",
 * "query:"). Depth counts containers: `{}` is 1, `{"a":[]}` is 2. FormData values and uploaded file
 * names are strings too.
 */
export function inspectInput(value: unknown, root: string, maxDepth: number): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const stack: Frame[] = [{ value, path: root, depth: 0 }];
  const add = (path: string, message: string) =>
    problems.push({ path: path === root ? `${root}/` : path, message });
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === "string") {
      const reason = unstorableReason(v);
      if (reason) add(path, reason);
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (v instanceof Blob) {
      const name = (v as File).name;
      const reason = typeof name === "string" ? unstorableReason(name) : null;
      if (reason) add(path, `file name ${reason}`);
      continue;
    }
    if (depth + 1 > maxDepth) {
      add(path, `must not nest deeper than ${maxDepth} levels`);
      continue;
    }
    const entries: Iterable<[string, unknown]> =
      v instanceof FormData
        ? v.entries()
        : Array.isArray(v)
          ? (v.entries() as Iterable<[never, unknown]>)
          : Object.entries(v);
    for (const [key, child] of entries) {
      const childPath = `${path}/${pointerSegment(String(key))}`;
      const keyReason = typeof key === "string" ? unstorableReason(key) : null;
      if (keyReason) add(childPath, `field name ${keyReason}`);
      else stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return problems;
}
