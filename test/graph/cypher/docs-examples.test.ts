// Every ```cypher block of docs/cypher.md runs through HTTP, on PostgreSQL and on PGlite, against
// the org chart it describes and returns rows (the rows its `// rows:` line gives, if any); every
// ```cypher refused block is a 422 naming the token and position its `// 422:` line gives. The
// documentation cannot drift from the parser and compiler.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { show, testApp, type Tenant, type TestApp } from "../../harness/app";
import { embeddedApp } from "../../harness/embedded-app";
import { recall } from "../../http/recall/seed";
import { seedOrgChart } from "./org-chart";

const AGENT = "agent-cypher-docs";
const DOC = readFileSync(new URL("../../../docs/cypher.md", import.meta.url), "utf8");

type Example = {
  info: string;
  query: string;
  params: Record<string, unknown>;
  asOf: string | null;
  rows: unknown[] | null;
  refusal: { token: string; line: number; column: number } | null;
};

function examples(): Example[] {
  return [...DOC.matchAll(/^```(cypher(?: refused)?)\n([\s\S]*?)^```$/gm)].map(([, info, body]) => {
    const directive = (name: string) =>
      body!.match(new RegExp(`^// ${name}: (.*)$`, "m"))?.[1] ?? null;
    const params = directive("params");
    const rows = directive("rows");
    const refusal = directive("422")?.match(/^(\S+) (\d+):(\d+)$/);
    if (info === "cypher refused" && !refusal)
      throw new Error(`a refused example needs a '// 422: TOKEN line:column' line:\n${body}`);
    // Directive lines are comments to the parser, so the query is the block exactly as a reader
    // copies it.
    return {
      info: info!,
      query: body!.trimEnd(),
      params: params ? JSON.parse(params) : {},
      asOf: directive("as_of"),
      rows: rows ? JSON.parse(rows) : null,
      refusal: refusal
        ? { token: refusal[1]!, line: Number(refusal[2]), column: Number(refusal[3]) }
        : null,
    };
  });
}

const modes: Record<string, { t: TestApp; a: Tenant; close: () => Promise<void> }> = {};

beforeAll(async () => {
  const t = await testApp();
  const a = await t.tenant("cypher-docs");
  await seedOrgChart(t, a, AGENT);
  modes.postgres = { t, a, close: () => t.close() };
  const embedded = await embeddedApp("cypher-docs");
  const tenant = await embedded.tenant("cypher-docs-embedded");
  await seedOrgChart(embedded.app, tenant, AGENT);
  modes.embedded = { t: embedded.app, a: tenant, close: embedded.close };
}, 60_000);
afterAll(async () => {
  for (const mode of Object.values(modes)) await mode.close();
});

const all = examples();

test("docs/cypher.md has runnable and refused examples", () => {
  expect(all.filter((e) => e.info === "cypher").length).toBeGreaterThanOrEqual(12);
  expect(all.filter((e) => e.info === "cypher refused").length).toBeGreaterThanOrEqual(3);
});

for (const mode of ["postgres", "embedded"]) {
  describe(`docs/cypher.md on ${mode}`, () => {
    for (const example of all) {
      const title = example.query
        .split("\n")
        .filter((l) => !l.startsWith("//"))
        .join(" ");
      if (example.refusal) {
        const { token, line, column } = example.refusal;
        test(`refused: ${title}`, async () => {
          const { t, a } = modes[mode]!;
          const res = await recall(t, a.key, {
            agent_id: AGENT,
            query: example.query,
            params: example.params,
            strategy: "CYPHER",
          });
          expect(res.status, show(res)).toBe(422);
          // Positions count from the block's first line (the directive comment included), as sent.
          expect(res.body.errors[0], show(res)).toMatchObject({
            path: "/query",
            token,
            line,
            column,
          });
        });
      } else {
        test(`runs: ${title}`, async () => {
          const { t, a } = modes[mode]!;
          const res = await recall(t, a.key, {
            agent_id: AGENT,
            query: example.query,
            params: example.params,
            strategy: "CYPHER",
            ...(example.asOf ? { as_of: example.asOf } : {}),
          });
          expect(res.status, show(res)).toBe(200);
          expect(res.body.strategy).toBe("CYPHER");
          expect(res.body.graph.table.rows.length, show(res)).toBeGreaterThan(0);
          expect(res.body.graph.notice).toBeUndefined();
          if (example.rows) expect(res.body.graph.table.rows).toEqual(example.rows);
        });
      }
    }
  });
}
