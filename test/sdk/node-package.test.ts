// The SDK as a user installs it: built (tsc: JavaScript and declarations), installed from the repo
// path into a fresh project, imported through its `exports` by Node and by Bun, and the TypeScript
// SDK example of the top-level README run as written against a live server; a TypeScript consumer
// type-checks against the declarations.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN } from "../harness/process";
import type { Tenant } from "../harness/app";
import { serve, type Served } from "./server";

const ROOT = new URL("../..", import.meta.url).pathname;
const SDK_DIR = join(ROOT, "sdk");
const README = await Bun.file(join(ROOT, "README.md")).text();
/** The README's "TypeScript SDK" section's code block, as a user would copy it. */
const EXAMPLE = README.split("## TypeScript SDK")[1]?.match(/```ts\n([\s\S]*?)```/)?.[1] ?? "";

let s: Served;
let tenant: Tenant;
const project = mkdtempSync(join(tmpdir(), "svc-sdk-node-"));

async function run(cmd: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn(cmd, {
    cwd: project,
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

beforeAll(async () => {
  s = await serve();
  tenant = await s.t.tenant("sdk-node");
  const build = await run(["node", join(SDK_DIR, "build.mjs")]);
  expect(build.code, build.stdout + build.stderr).toBe(0);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "sdk-user", private: true, type: "module" }),
  );
  const install = await run(["npm", "install", "--offline", "--no-audit", "--no-fund", SDK_DIR]);
  expect(install.code, install.stdout + install.stderr).toBe(0);
  writeFileSync(join(project, "example.mjs"), EXAMPLE.replaceAll("http://localhost:8080", s.url));
}, 120_000);
afterAll(async () => {
  await s.stop();
  rmSync(project, { recursive: true, force: true });
});

test("the README has a TypeScript SDK example that stores, recalls and forgets", () => {
  for (const call of ["memories.store", "memories.recall", "memories.forget"])
    expect(EXAMPLE).toContain(call);
});

for (const runtime of ["node", "bun"] as const) {
  test(`${runtime} imports the installed package and runs the README example: the recall finds the stored memory`, async () => {
    const r = await run([runtime === "node" ? "node" : BUN, "example.mjs"], {
      SVC_API_KEY: tenant.key,
    });
    expect(r.code, r.stderr).toBe(0);
    // The example prints what it recalled: the memory it stored, found by the words the query
    // shares with it.
    const [stored] = EXAMPLE.match(/content: "([^"]+)"/)!.slice(1);
    expect(r.stdout).toContain(stored!);
  }, 60_000);
}

test("a TypeScript project type-checks against the package's declarations (NodeNext resolution)", async () => {
  writeFileSync(
    join(project, "check.ts"),
    `import { SvcClient, NotFoundError, type ClientOptions } from "@svc/sdk";
const options: ClientOptions = { baseUrl: "http://localhost:8080", apiKey: "k" };
const svc = new SvcClient(options);
export const recalled: Promise<string[]> = svc.memories.recall({ agent_id: "a", query: "q" }).then((r) => r.results.map((m) => m.content));
export const isError: boolean = new Error() instanceof NotFoundError;
// @ts-expect-error: agent_id is required
svc.memories.store({ content: "x" });
`,
  );
  const tsc = join(ROOT, "node_modules/.bin/tsc");
  const r = await run([
    tsc,
    "--noEmit",
    "--strict",
    "--module",
    "nodenext",
    "--moduleResolution",
    "nodenext",
    "--target",
    "es2022",
    "--lib",
    "es2022,dom",
    "check.ts",
  ]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
}, 240_000); // tsc takes a minute or more on a busy machine; the bound only catches a hang
