// Writes the Python SDK's generated files from the served /openapi.json: sdk/python/svc/_models.py
// (TypedDicts of every JSON body, query and answer) and sdk/python/svc/_async_client.py (the async
// twin of the hand-written sync client). test/sdk/python-drift.test.ts fails when either differs
// from what is committed. Run: bun run scripts/sdk-types.ts (regenerates the TypeScript and the
// Python SDK types).

type Schema = Record<string, any>;
type Operation = Record<string, any>;

export const PYTHON_MODELS_PATH = new URL("../sdk/python/svc/_models.py", import.meta.url).pathname;
export const PYTHON_SYNC_CLIENT_PATH = new URL("../sdk/python/svc/_client.py", import.meta.url)
  .pathname;
export const PYTHON_ASYNC_CLIENT_PATH = new URL(
  "../sdk/python/svc/_async_client.py",
  import.meta.url,
).pathname;

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const SUCCESS = ["200", "201", "202"];
const PY_KEYWORDS = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
]);

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");
const pyString = (text: string) => JSON.stringify(text);

/**
 * "postV1Api-keysByKey_id" → "PostApiKeysByKeyId": the operation's name without the API version.
 */
export function operationName(operationId: string): string {
  return pascal(operationId.replace(/V1(?=[A-Z]|$)/, "").replace(/([a-z0-9])([A-Z])/g, "$1 $2"));
}

class ModelWriter {
  private readonly blocks: string[] = [];
  private readonly taken = new Set<string>();

  emitted(): string[] {
    return this.blocks;
  }

  /** The Python type of a schema; object schemas with properties become TypedDicts named `name`. */
  typeOf(schema: Schema | undefined, name: string): string {
    if (!schema || typeof schema !== "object") return "Any";
    if ("const" in schema) return `Literal[${JSON.stringify(schema.const)}]`;
    if (Array.isArray(schema.enum))
      return `Literal[${schema.enum.map((v: unknown) => JSON.stringify(v)).join(", ")}]`;
    const variants: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
    if (variants)
      return union(
        variants.map((variant, i) =>
          this.typeOf(variant, variants.length > 1 ? `${name}${i + 1}` : name),
        ),
      );
    const types: string[] = Array.isArray(schema.type)
      ? schema.type
      : schema.type
        ? [schema.type]
        : [];
    if (types.length === 0) return schema.properties ? this.typedDict(schema, name) : "Any";
    return union(types.map((type) => this.single(type, schema, name)));
  }

  private single(type: string, schema: Schema, name: string): string {
    switch (type) {
      case "string":
        return schema.format === "binary" ? "bytes" : "str";
      case "integer":
        return "int";
      case "number":
        return "float";
      case "boolean":
        return "bool";
      case "null":
        return "None";
      case "array":
        return `List[${this.typeOf(schema.items, `${name}Item`)}]`;
      case "object": {
        if (schema.properties && Object.keys(schema.properties).length > 0)
          return this.typedDict(schema, name);
        const pattern = schema.patternProperties
          ? (Object.values(schema.patternProperties)[0] as Schema)
          : undefined;
        const extra =
          typeof schema.additionalProperties === "object" ? schema.additionalProperties : pattern;
        return `Dict[str, ${this.typeOf(extra, `${name}Value`)}]`;
      }
      default:
        return "Any";
    }
  }

  /**
   * A TypedDict; required and optional keys split over a base and a total=False subclass when
   * mixed.
   */
  typedDict(schema: Schema, wanted: string, doc?: string): string {
    const name = this.unique(wanted);
    const required = new Set<string>(schema.required ?? []);
    const fields = Object.entries(schema.properties ?? {}).map(([key, sub]) => ({
      key,
      type: this.typeOf(sub as Schema, `${name}${pascal(key)}`),
      required: required.has(key),
    }));
    const must = fields.filter((f) => f.required);
    const may = fields.filter((f) => !f.required);
    const docLine = doc ? `    ${pyString(doc)}\n` : "";
    if (must.length > 0 && may.length > 0) {
      this.blocks.push(classOf(`_${name}Required`, "TypedDict", must, "", ""));
      this.blocks.push(classOf(name, `_${name}Required`, may, ", total=False", docLine));
    } else {
      this.blocks.push(
        classOf(name, "TypedDict", fields, must.length > 0 ? "" : ", total=False", docLine),
      );
    }
    return name;
  }

  private unique(wanted: string): string {
    let name = wanted;
    for (let i = 2; this.taken.has(name); i++) name = `${wanted}${i}`;
    this.taken.add(name);
    return name;
  }
}

function union(members: string[]): string {
  const flat = [...new Set(members.flatMap((m) => (m.startsWith("Union[") ? splitUnion(m) : [m])))];
  if (flat.includes("Any")) return "Any";
  return flat.length === 1 ? flat[0]! : `Union[${flat.join(", ")}]`;
}

function splitUnion(type: string): string[] {
  const inner = type.slice("Union[".length, -1);
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === "[") depth++;
    else if (c === "]") depth--;
    else if (c === "," && depth === 0) {
      parts.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(inner.slice(start).trim());
  return parts;
}

type Field = { key: string; type: string };

function classOf(
  name: string,
  base: string,
  fields: Field[],
  totality: string,
  docLine: string,
): string {
  const plain = fields.every(
    (f) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(f.key) && !PY_KEYWORDS.has(f.key),
  );
  if (plain) {
    const body = fields.map((f) => `    ${f.key}: ${f.type}`).join("\n");
    return `class ${name}(${base}${totality}):\n${docLine}${body || (docLine ? "" : "    pass")}`.trimEnd();
  }
  // Keys that are not Python identifiers (or are keywords) need the functional form.
  const entries = fields.map((f) => `    ${pyString(f.key)}: ${f.type},`).join("\n");
  const functional = `${name} = TypedDict(${pyString(name)}, {\n${entries}\n}${totality})`;
  return base === "TypedDict"
    ? functional
    : `${functional.replace(`${name} = `, `_${name}Fields = `).replace(pyString(name), pyString(`_${name}Fields`))}\n\n\nclass ${name}(${base}, _${name}Fields${totality}):\n    pass`;
}

const HEADER = `# Generated by scripts/sdk-python-types.ts from the served /openapi.json (all gates on). Do not edit.
# One TypedDict per JSON request body (…Body), multipart form (…Form), query (…Query) and success
# answer (…Response) of every operation, named after the operation id; nested objects extend the name.
from __future__ import annotations

from typing import Any, Dict, List, Literal, TypedDict, Union
`;

export type OpenApi = { paths: Record<string, Record<string, Operation>> };

export function pythonModelsFrom(spec: OpenApi): string {
  const writer = new ModelWriter();
  let problem: Schema | undefined;
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const name = operationName(op.operationId);
      const where = `${method.toUpperCase()} ${path}`;
      const query = (op.parameters ?? []).filter((p: Schema) => p.in === "query");
      if (query.length > 0) {
        const schema = {
          properties: Object.fromEntries(query.map((p: Schema) => [p.name, p.schema])),
          required: query.filter((p: Schema) => p.required).map((p: Schema) => p.name),
        };
        writer.typedDict(schema, `${name}Query`, `Query parameters of ${where}.`);
      }
      const content = op.requestBody?.content ?? {};
      if (content["application/json"]?.schema?.properties)
        writer.typedDict(content["application/json"].schema, `${name}Body`, `Body of ${where}.`);
      if (content["multipart/form-data"]?.schema?.properties)
        writer.typedDict(content["multipart/form-data"].schema, `${name}Form`, `Form of ${where}.`);
      const ok = SUCCESS.map((code) => op.responses?.[code]).find(Boolean);
      const answer = ok?.content?.["application/json"]?.schema;
      if (answer?.properties) writer.typedDict(answer, `${name}Response`, `Answer of ${where}.`);
      const failure = Object.entries<Schema>(op.responses ?? {}).find(([code]) =>
        code.startsWith("4"),
      )?.[1];
      problem ??= failure?.content?.["application/json"]?.schema;
    }
  }
  if (problem)
    writer.typedDict(
      problem,
      "Problem",
      "An RFC 7807 problem document (every 4xx and 5xx answer).",
    );
  return `${HEADER}\n\n${writer.emitted().join("\n\n\n")}\n`;
}

const ASYNC_HEADER =
  "# Generated by scripts/sdk-python-types.ts from svc/_client.py (async twin). Do not edit.\n";

/**
 * The async client from the sync one by fixed rewrites (the technique of httpcore's unasync):
 * public methods become coroutines, transport calls and the chain verification are awaited, Sync…
 * and sync_… names become their Async… and async_… twins. A def line marked "plain def" stays a
 * function: it returns an iterator or a job handle without making a request itself.
 */
export function asyncClientFrom(sync: string): string {
  const lines = sync
    .replace(/^(# .*\n)+/, "")
    .split("\n")
    .map((line) => {
      let out = line
        .replace(/\bSync(\w+)/g, "Async$1")
        .replace(/\bsync_(\w+)/g, "async_$1")
        .replace(/\bIterator\b/g, "AsyncIterator")
        .replace(/\bhttpx\.Client\b/g, "httpx.AsyncClient")
        .replace(/^class Svc\(/, "class AsyncSvc(")
        .replace("The blocking client", "The asyncio client");
      if (line.includes("# plain def")) return out;
      out = out.replace(/^(\s+)def (?!_)/, "$1async def ");
      out = out.replace(/\bself\._t\.(get|post|put|patch|delete|call)\(/g, "await self._t.$1(");
      return out.replace(/\breturn async_verify_rows\(/, "return await async_verify_rows(");
    });
  return ASYNC_HEADER + lines.join("\n");
}

/**
 * Writes _models.py from the spec and _async_client.py from the committed sync client; returns the
 * paths.
 */
export async function writePythonSdk(spec: OpenApi): Promise<string[]> {
  await Bun.write(PYTHON_MODELS_PATH, pythonModelsFrom(spec));
  await Bun.write(
    PYTHON_ASYNC_CLIENT_PATH,
    asyncClientFrom(await Bun.file(PYTHON_SYNC_CLIENT_PATH).text()),
  );
  return [PYTHON_MODELS_PATH, PYTHON_ASYNC_CLIENT_PATH];
}
