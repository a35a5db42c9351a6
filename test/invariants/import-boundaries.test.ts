// The layers of src/ (docs/architecture.md): a file imports only its own top folder or a lower
// layer, never a peer of its layer or a layer above; no Valkey client in the core; no cycles. No
// exceptions (issue 26 item 2): a shared part moves down, or the composition root joins the two.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Lowest first. Folders in one row are peers: neither imports the other. */
const LAYERS: ReadonlyArray<readonly string[]> = [
  ["lib"], // generic helpers: ids, hashes, cursors, errors
  ["config"], // the config schema and its loading
  ["observability"], // logs, metrics, traces
  ["data", "providers"], // PostgreSQL; external services
  ["domain"], // the product's rules, through ports
  ["queue", "valkey"], // background tasks; Valkey adapters (rate limiter)
  ["operations"], // the catalog of operations (scope, gate, audit, MCP tool); Deps
  ["http"], // the HTTP API
  ["mcp"], // the MCP server and /mcp, on top of HTTP's pipeline and schemas
  ["app"], // the composition root: builds Deps from config, joins HTTP's routes and /mcp
  ["cli"], // the commands
  ["main.ts"], // the binary's entry
];

/** Packages only the Valkey-facing layers may import. */
const VALKEY_PACKAGES = ["ioredis", "bullmq"];
const VALKEY_FOLDERS = ["queue", "valkey", "app"];

const SRC = path.resolve(import.meta.dir, "../../src");

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith(".ts") ? [full] : [];
  });
}

const relative = (file: string) => path.relative(SRC, file).split(path.sep).join("/");
const folderOf = (file: string) => relative(file).split("/")[0]!;
const rankOf = (folder: string) => LAYERS.findIndex((row) => row.includes(folder));

// Static imports, re-exports, side-effect imports and dynamic import() with a literal specifier.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;

function importsOf(file: string): { specifier: string; target: string | null }[] {
  return [...readFileSync(file, "utf8").matchAll(IMPORT)].map(([, specifier]) => {
    if (!specifier!.startsWith(".")) return { specifier: specifier!, target: null };
    const base = path.resolve(path.dirname(file), specifier!);
    const found = [base, `${base}.ts`, path.join(base, "index.ts")].find(
      (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
    );
    return { specifier: specifier!, target: found ?? base };
  });
}

const files = sourceFiles();
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const moduleName = (file: string) => relative(file).replace(/\.ts$/, "");

function backArrows(): Map<string, string[]> {
  const arrows = new Map<string, string[]>();
  for (const [file, imports] of graph) {
    const from = folderOf(file);
    for (const { target } of imports) {
      if (target === null || !target.startsWith(SRC)) continue;
      const to = folderOf(target);
      if (to === from || rankOf(to) < rankOf(from)) continue;
      const key = `${from} -> ${moduleName(target)}`;
      arrows.set(key, [...(arrows.get(key) ?? []), relative(file)]);
    }
  }
  return arrows;
}

/** Strongly connected components of more than one file (Tarjan). */
function cycles(): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const { target } of graph.get(file) ?? []) {
      if (target === null || !graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (stack.includes(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(relative(member));
    } while (member !== file);
    if (component.length > 1) found.push(component.sort().join(" <-> "));
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return found.sort();
}

describe("import boundaries", () => {
  test("every top folder of src/ has a layer", () => {
    const folders = [...new Set(files.map(folderOf))];
    expect(folders.filter((folder) => rankOf(folder) < 0)).toEqual([]);
  });

  test("every relative import names a file that exists", () => {
    const missing = [...graph].flatMap(([file, imports]) =>
      imports
        .filter((i) => i.target !== null && !existsSync(i.target))
        .map((i) => `${relative(file)}: ${i.specifier}`),
    );
    expect(missing).toEqual([]);
  });

  test("no layer imports a peer or a layer above", () => {
    const arrows = [...backArrows()].map(
      ([key, importers]) => `${key} (from ${importers.join(", ")})`,
    );
    expect(arrows).toEqual([]);
  });

  test("no import cycles", () => {
    expect(cycles()).toEqual([]);
  });

  test("only the Valkey-facing layers import a Valkey client", () => {
    const offending = [...graph].flatMap(([file, imports]) =>
      imports
        .filter((i) => VALKEY_PACKAGES.includes(i.specifier))
        .filter(() => !VALKEY_FOLDERS.includes(folderOf(file)))
        .map((i) => `${relative(file)}: ${i.specifier}`),
    );
    expect(offending).toEqual([]);
  });
});
