// Event time and the recall pipeline on PGlite (embedded mode, one connection, one data dir for the
// file): occurred_at on store, batch, PATCH and turns; TEMPORAL and the event-time filters.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";

let e: EmbeddedApp;
let key: string;
const call = async (method: string, url: string, body?: unknown) =>
  e.app.request(method, url, { key, body });
const show = (r: { status: number; body: unknown }) =>
  `${r.status} ${JSON.stringify(r.body).slice(0, 400)}`;
const ids = (r: { body: { results: Array<{ memory_id: string }> } }) =>
  r.body.results.map((x) => x.memory_id);

beforeAll(async () => {
  e = await embeddedApp("recall");
  key = (await e.tenant("embedded-recall")).key;
}, 60_000);

afterAll(() => e.close());

test("event time: store, batch, PATCH and turns keep occurred_at; TEMPORAL and the filters read it", async () => {
  const batch = await call("POST", "/v1/memories/batch", {
    memories: [
      {
        agent_id: "ev",
        content: "Caroline went to a pride parade with friends",
        occurred_at: "2023-05-20T15:00:00Z",
      },
      {
        agent_id: "ev",
        content: "Melanie ran a charity race for mental health",
        occurred_at: "2023-05-27",
      },
      { agent_id: "ev", content: "Melanie painted a sunset over the lake" },
    ],
  });
  expect(batch.status, show(batch)).toBe(201);
  const [parade, race, sunset] = batch.body.memories.map((m: { memory_id: string }) => m.memory_id);
  expect(batch.body.memories[1].occurred_at).toBe("2023-05-27T00:00:00.000Z");
  expect(batch.body.memories[2].occurred_at).toBe(batch.body.memories[2].created_at);

  const patched = await call("PATCH", `/v1/memories/${sunset}`, {
    occurred_at: "2023-08-14T18:00:00Z",
  });
  expect(patched.status, show(patched)).toBe(200);
  expect(patched.body).toMatchObject({ version: 2, occurred_at: "2023-08-14T18:00:00.000Z" });
  expect((await call("PATCH", `/v1/memories/${sunset}`, { occurred_at: "someday" })).status).toBe(
    422,
  );

  const conv = await call("POST", "/v1/conversations", { agent_id: "ev" });
  const turn = await call("POST", `/v1/conversations/${conv.body.conversation_id}/turns`, {
    role: "user",
    content: "Caroline signed up for pottery classes",
    occurred_at: "2023-07-08T10:00:00Z",
  });
  expect(turn.status, show(turn)).toBe(201);
  expect(turn.body.occurred_at).toBe("2023-07-08T10:00:00.000Z");
  const listed = await call("GET", `/v1/conversations/${conv.body.conversation_id}/turns`);
  expect(listed.body.items[0].occurred_at).toBe("2023-07-08T10:00:00.000Z");

  const may = await call("POST", "/v1/memories/recall", {
    agent_id: "ev",
    query: "what happened in May 2023",
    strategy: "TEMPORAL",
  });
  expect(may.status, show(may)).toBe(200);
  expect(may.body.strategy).toBe("TEMPORAL");
  expect(ids(may).sort()).toEqual([parade, race].sort());
  expect(
    may.body.results.every((r: { occurred_at: string }) => r.occurred_at.startsWith("2023-05")),
  ).toBe(true);

  const after = await call("POST", "/v1/memories/recall", {
    agent_id: "ev",
    query: "what did Melanie do after the charity race",
    strategy: "TEMPORAL",
  });
  expect(ids(after)[0]).toBe(sunset);
  expect(ids(after)).not.toContain(race);

  const filtered = await call("POST", "/v1/memories/recall", {
    agent_id: "ev",
    query: "Melanie Caroline",
    strategy: "LEXICAL",
    filters: { occurred_after: "2023-07-01T00:00:00Z" },
  });
  expect(ids(filtered).sort()).toEqual([sunset, turn.body.memory_id].sort());

  const empty = await call("POST", "/v1/memories/recall", {
    agent_id: "ev",
    query: "what did Melanie do in 1999",
    strategy: "TEMPORAL",
  });
  expect(empty.body.note).toContain("ranked over all time instead");
  expect(ids(empty).length).toBeGreaterThan(0);
});
