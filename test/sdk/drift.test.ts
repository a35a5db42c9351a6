// The committed SDK types must be exactly what openapi-typescript makes of the served
// /openapi.json.
import { afterAll, expect, test } from "bun:test";
import { SDK_TYPES_GATES, SDK_TYPES_PATH, sdkTypesFrom } from "../../scripts/sdk-types";
import { testApp } from "../harness/app";

const t = await testApp(SDK_TYPES_GATES);
afterAll(() => t.close());

test("sdk/src/openapi.d.ts matches the served OpenAPI (regenerate: bun run scripts/sdk-types.ts)", async () => {
  const spec = (await t.request("GET", "/openapi.json")).body;
  expect(Object.keys(spec.paths)).toContain("/v1/distill"); // gated routes are in the description
  const fresh = await sdkTypesFrom(spec);
  const committed = await Bun.file(SDK_TYPES_PATH).text();
  expect(
    committed === fresh,
    "sdk/src/openapi.d.ts drifted from /openapi.json: run `bun run scripts/sdk-types.ts`",
  ).toBe(true);
});

test("the check can fail: a changed description gives different types", async () => {
  const spec = (await t.request("GET", "/openapi.json")).body;
  spec.paths["/v1/memories"].post.summary = "changed";
  expect(await sdkTypesFrom(spec)).not.toBe(await Bun.file(SDK_TYPES_PATH).text());
});

test("the SDK compiles against the web platform alone (no Bun or Node APIs, no dependencies)", async () => {
  const tsc = new URL("../../node_modules/.bin/tsc", import.meta.url).pathname;
  const result = Bun.spawnSync([tsc, "-p", new URL("../../sdk", import.meta.url).pathname]);
  expect(result.exitCode, result.stdout.toString()).toBe(0);
  const pkg = await Bun.file(new URL("../../sdk/package.json", import.meta.url).pathname).json();
  expect(pkg.dependencies ?? {}).toEqual({});
});
