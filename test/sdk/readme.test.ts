// Executes every ```ts block of sdk/README.md against the real app, with baseUrl, apiKey and orgId
// in scope.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorker, type RunningWorker } from "../../src/queue/worker";
import { BullmqQueue } from "../../src/queue/bullmq-queue";
import { TEST_QUEUE_PREFIX, type Tenant } from "../harness/app";
import { ALL_GATES, serve, type Served } from "./server";

const SDK_ENTRY = new URL("../../sdk/src/index.ts", import.meta.url).pathname;
const README = await Bun.file(new URL("../../sdk/README.md", import.meta.url).pathname).text();
const blocks = [...README.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

let s: Served;
let worker: RunningWorker;
let a: Tenant;
const dir = mkdtempSync(join(tmpdir(), "svc-sdk-readme-"));

beforeAll(async () => {
  s = await serve({ ...ALL_GATES, SVC_QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-sdkreadme` });
  worker = await startWorker(s.t.deps);
  a = await s.t.tenant("readme");
});
afterAll(async () => {
  await worker.close();
  if (s.t.deps.queue instanceof BullmqQueue) await s.t.deps.queue.queue.obliterate({ force: true });
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("the README has the examples this test runs", () => {
  expect(blocks.length).toBeGreaterThanOrEqual(6);
});

blocks.forEach((code, i) => {
  test(`README example ${i + 1}: ${code
    .split("\n")
    .find((l) => l.startsWith("const") || l.startsWith("for") || l.startsWith("try"))
    ?.slice(0, 60)}`, async () => {
    const file = join(dir, `example-${i}.ts`);
    // The package name resolves to the SDK's source, as it would from node_modules.
    const source = code.replaceAll(`from "@svc/sdk"`, `from ${JSON.stringify(SDK_ENTRY)}`);
    writeFileSync(
      file,
      `export async function run(baseUrl: string, apiKey: string, orgId: string) {\n${hoistImports(source)}\n}\n`,
    );
    const { drainAudit } = await import("../../src/domain/audit/drain");
    await drainAudit(s.t.deps.db, { orgId: a.orgId }); // rows show in GET /v1/audit once drained
    const logs: unknown[][] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => void logs.push(args);
    try {
      await (await import(file)).run(s.url, a.key, a.orgId);
    } finally {
      console.log = original;
    }
    expect(logs.length, `example ${i + 1} printed nothing`).toBeGreaterThan(0);
    // A `// "text"` comment in the example promises what it prints.
    const printed = logs.map((args) => args.join(" ")).join("\n");
    for (const [, promised] of code.matchAll(/\/\/ "([^"]+)"/g))
      expect(printed).toContain(promised!);
  });
});

/** Moves the block's import lines to dynamic imports inside the function body. */
function hoistImports(source: string): string {
  return source.replace(
    /^import \{([^}]+)\} from ("[^"]+");$/gm,
    (_, names: string, from: string) => `const {${names}} = await import(${from});`,
  );
}
