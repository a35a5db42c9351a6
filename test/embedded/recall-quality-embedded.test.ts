// Event time and the recall pipeline on PGlite (embedded mode, one connection, one data dir for the file):
// occurred_at on store, batch, PATCH and turns; TEMPORAL and the event-time filters.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeDeps, openDeps } from "../../src/app/build-deps";
import type { Deps } from "../../src/app/deps";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";
import { migrate } from "../../src/data/migrate";
import { ensureVectorIndex } from "../../src/data/queries/memories-vector-index";
import { systemActor } from "../../src/domain/actor";
import { ensureOrg } from "../../src/domain/keys/bootstrap";
import { createKey } from "../../src/domain/keys/manage";
import { createApp, handleRequest } from "../../src/http/create-app";
import { createLogger } from "../../src/observability/log";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-embedded-recall-"));
let deps: Deps;
let key: string;
let handle: (r: Request) => Promise<Response>;

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await handle(new Request(`http://localhost${url}`, {
    method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }));
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
const show = (r: { status: number; body: unknown }) => `${r.status} ${JSON.stringify(r.body).slice(0, 400)}`;
const ids = (r: { body: { results: Array<{ memory_id: string }> } }) => r.body.results.map((x) => x.memory_id);

beforeAll(async () => {
  const config = loadConfig({}, { SVC_DATA_DIR: dataDir, LOG_LEVEL: "error", RATE_LIMIT_ENABLED: false, EMBEDDING_DIMENSIONS: 128 } as Partial<Config>);
  deps = await openDeps(config, { log: createLogger("error"), applicationName: "svc-embedded-recall" });
  await migrate(deps.db.primary);
  await ensureVectorIndex(deps.db.primary, 128);
  handle = handleRequest(createApp(deps), deps);
  const orgId = await ensureOrg(deps.db, "embedded-recall");
  key = (await createKey(deps.db, systemActor(orgId), "test")).key;
}, 60_000);

afterAll(async () => {
  await closeDeps(deps);
  rmSync(dataDir, { recursive: true, force: true });
});

test("event time: store, batch, PATCH and turns keep occurred_at; TEMPORAL and the filters read it", async () => {
  const batch = await call("POST", "/v1/memories/batch", { memories: [
    { agent_id: "ev", content: "Caroline went to a pride parade with friends", occurred_at: "2023-05-20T15:00:00Z" },
    { agent_id: "ev", content: "Melanie ran a charity race for mental health", occurred_at: "2023-05-27" },
    { agent_id: "ev", content: "Melanie painted a sunset over the lake" },
  ] });
  expect(batch.status, show(batch)).toBe(201);
  const [parade, race, sunset] = batch.body.memories.map((m: { memory_id: string }) => m.memory_id);
  expect(batch.body.memories[1].occurred_at).toBe("2023-05-27T00:00:00.000Z");
  expect(batch.body.memories[2].occurred_at).toBe(batch.body.memories[2].created_at);

  const patched = await call("PATCH", `/v1/memories/${sunset}`, { occurred_at: "2023-08-14T18:00:00Z" });
  expect(patched.status, show(patched)).toBe(200);
  expect(patched.body).toMatchObject({ version: 2, occurred_at: "2023-08-14T18:00:00.000Z" });
  expect((await call("PATCH", `/v1/memories/${sunset}`, { occurred_at: "someday" })).status).toBe(422);

  const conv = await call("POST", "/v1/conversations", { agent_id: "ev" });
  const turn = await call("POST", `/v1/conversations/${conv.body.conversation_id}/turns`, { role: "user", content: "Caroline signed up for pottery classes", occurred_at: "2023-07-08T10:00:00Z" });
  expect(turn.status, show(turn)).toBe(201);
  expect(turn.body.occurred_at).toBe("2023-07-08T10:00:00.000Z");
  const listed = await call("GET", `/v1/conversations/${conv.body.conversation_id}/turns`);
  expect(listed.body.items[0].occurred_at).toBe("2023-07-08T10:00:00.000Z");

  const may = await call("POST", "/v1/memories/recall", { agent_id: "ev", query: "what happened in May 2023" });
  expect(may.status, show(may)).toBe(200);
  expect(may.body.strategy).toBe("TEMPORAL");
  expect(ids(may).sort()).toEqual([parade, race].sort());
  expect(may.body.results.every((r: { occurred_at: string }) => r.occurred_at.startsWith("2023-05"))).toBe(true);

  const after = await call("POST", "/v1/memories/recall", { agent_id: "ev", query: "what did Melanie do after the charity race", strategy: "TEMPORAL" });
  expect(ids(after)[0]).toBe(sunset);
  expect(ids(after)).not.toContain(race);

  const filtered = await call("POST", "/v1/memories/recall", { agent_id: "ev", query: "Melanie Caroline", strategy: "LEXICAL", filters: { occurred_after: "2023-07-01T00:00:00Z" } });
  expect(ids(filtered).sort()).toEqual([sunset, turn.body.memory_id].sort());

  const empty = await call("POST", "/v1/memories/recall", { agent_id: "ev", query: "what did Melanie do in 1999", strategy: "TEMPORAL" });
  expect(empty.body.note).toContain("ranked over all time instead");
  expect(ids(empty).length).toBeGreaterThan(0);
});
