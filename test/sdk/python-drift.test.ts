// The Python SDK's generated files must be exactly what scripts/sdk-python-types.ts makes: the
// models from the served /openapi.json, the async client from the sync one.
import { afterAll, expect, test } from "bun:test";
import { SDK_TYPES_GATES } from "../../scripts/sdk-types";
import {
  asyncClientFrom,
  PYTHON_ASYNC_CLIENT_PATH,
  PYTHON_MODELS_PATH,
  PYTHON_SYNC_CLIENT_PATH,
  pythonModelsFrom,
} from "../../scripts/sdk-python-types";
import { testApp } from "../harness/app";
import { findPython } from "./python-server";

const t = await testApp(SDK_TYPES_GATES);
afterAll(() => t.close());
const regenerate = "run `bun run scripts/sdk-types.ts`";

test("sdk/python/svc/_models.py matches the served OpenAPI", async () => {
  const spec = (await t.request("GET", "/openapi.json")).body;
  const committed = await Bun.file(PYTHON_MODELS_PATH).text();
  expect(
    committed === pythonModelsFrom(spec),
    `sdk/python/svc/_models.py drifted from /openapi.json: ${regenerate}`,
  ).toBe(true);
  expect(committed).toContain("class PostMemoriesBody(_PostMemoriesBodyRequired, total=False):");
});

test("the check can fail: a changed description gives different models", async () => {
  const spec = (await t.request("GET", "/openapi.json")).body;
  spec.paths["/v1/memories"].post.requestBody.content[
    "application/json"
  ].schema.properties.importance.type = "string";
  expect(pythonModelsFrom(spec)).not.toBe(await Bun.file(PYTHON_MODELS_PATH).text());
});

test("sdk/python/svc/_async_client.py is the async twin of the committed sync client", async () => {
  const sync = await Bun.file(PYTHON_SYNC_CLIENT_PATH).text();
  const committed = await Bun.file(PYTHON_ASYNC_CLIENT_PATH).text();
  expect(
    committed === asyncClientFrom(sync),
    `sdk/python/svc/_async_client.py drifted from _client.py: ${regenerate}`,
  ).toBe(true);
  expect(asyncClientFrom(sync.replace("def store(", "def keep("))).not.toBe(committed);
});

test("both clients have the same namespaces and methods; async ones are coroutines or async iterators", () => {
  const script = `
import inspect, json, svc
def shape(client_cls, is_async):
    c = client_cls("http://127.0.0.1:9")
    out = {}
    def walk(prefix, ns):
        for name, value in vars(ns).items():
            if name.startswith("_"): continue
            if hasattr(value, "__dict__") and not callable(value): walk(prefix + name + ".", value)
        for name, fn in inspect.getmembers(type(ns), inspect.isfunction):
            if name.startswith("_") or prefix == "": continue
            out[prefix + name] = inspect.iscoroutinefunction(fn)
    walk("", c)
    return out
print(json.dumps([shape(svc.Svc, False), shape(svc.AsyncSvc, True)]))
`;
  const result = Bun.spawnSync([findPython(), "-c", script], {
    cwd: new URL("../../sdk/python", import.meta.url).pathname,
  });
  expect(result.exitCode, result.stderr.toString()).toBe(0);
  const [sync, async] = JSON.parse(result.stdout.toString()) as Record<string, boolean>[];
  expect(Object.keys(async!).sort()).toEqual(Object.keys(sync!).sort());
  expect(Object.values(sync!).some(Boolean)).toBe(false);
  const plain = Object.entries(async!)
    .filter(([, coroutine]) => !coroutine)
    .map(([name]) => name)
    .sort();
  expect(plain).toEqual([
    "agents.list",
    "audit.list",
    "erasures.job",
    "export.lines",
    "export.records",
    "forge.distill_job",
    "forge.ingest_job",
    "forge.refine_job",
    "memories.list",
    "memories.recall_stream",
  ]);
  expect(Object.keys(sync!)).toContain("forge.datasets.create");
});
