// Event time (occurred_at) end to end through HTTP: store, batch, PATCH, conversation turns, the
// recall filters, TEMPORAL windows and anchors on event time, and time words that resolve to no
// usable window.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { show, testApp, type Tenant, type TestApp } from "../../harness/app";
import { idsOf, recall } from "../recall/seed";

let t: TestApp;
let a: Tenant;
beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("event-time");
});
afterAll(() => t.close());

const store = (body: Record<string, unknown>) =>
  t.request("POST", "/v1/memories", { key: a.key, body: { agent_id: "ev", ...body } });

describe("occurred_at on the write paths", () => {
  test("store: a date-time or a date is kept; without one the event time is the store time", async () => {
    const dated = await store({
      content: "Moved to Lisbon",
      occurred_at: "2023-05-08T14:30:00+02:00",
    });
    expect(dated.status, show(dated)).toBe(201);
    expect(dated.body.occurred_at).toBe("2023-05-08T12:30:00.000Z");
    const day = await store({ content: "Adopted a dog", occurred_at: "2022-11-02" });
    expect(day.body.occurred_at).toBe("2022-11-02T00:00:00.000Z");
    const plain = await store({ content: "Likes tea" });
    expect(plain.body.occurred_at).toBe(plain.body.created_at);
    const read = await t.request("GET", `/v1/memories/${dated.body.memory_id}`, { key: a.key });
    expect(read.body.occurred_at).toBe("2023-05-08T12:30:00.000Z");
  });

  test("an unusable occurred_at is a 422 naming the field, and nothing is stored", async () => {
    for (const bad of ["yesterday", "2023-13-45", "2023-05-08Tnonsense", "12345-01-01"]) {
      const res = await store({ content: `bad ${bad}`, occurred_at: bad });
      expect(res.status, show(res)).toBe(422);
      expect(res.body.errors.map((e: { path: string }) => e.path).join()).toContain("occurred_at");
    }
    const batch = await t.request("POST", "/v1/memories/batch", {
      key: a.key,
      body: {
        memories: [
          { agent_id: "ev-bad", content: "ok", occurred_at: "2020-01-01" },
          { agent_id: "ev-bad", content: "bad", occurred_at: "not a date" },
        ],
      },
    });
    expect(batch.status, show(batch)).toBe(422);
    expect(batch.body.errors.map((e: { path: string }) => e.path).join()).toContain(
      "1/occurred_at",
    );
    const nothing = await recall(t, a.key, {
      agent_id: "ev-bad",
      query: "ok bad",
      strategy: "LEXICAL",
    });
    expect(nothing.body.results).toEqual([]);
  });

  test("batch: each item has its own event time", async () => {
    const res = await t.request("POST", "/v1/memories/batch", {
      key: a.key,
      body: {
        memories: [
          { agent_id: "ev", content: "first trip to Osaka", occurred_at: "2019-04-01T00:00:00Z" },
          { agent_id: "ev", content: "second trip to Osaka" },
        ],
      },
    });
    expect(res.status, show(res)).toBe(201);
    expect(res.body.memories[0].occurred_at).toBe("2019-04-01T00:00:00.000Z");
    expect(res.body.memories[1].occurred_at).toBe(res.body.memories[1].created_at);
  });

  test("PATCH: occurred_at alone makes a new version; other patches keep the event time", async () => {
    const m = (await store({ content: "Ran a half marathon", occurred_at: "2024-09-15" })).body;
    const moved = await t.request("PATCH", `/v1/memories/${m.memory_id}`, {
      key: a.key,
      body: { occurred_at: "2024-09-22T08:00:00Z" },
    });
    expect(moved.status, show(moved)).toBe(200);
    expect(moved.body).toMatchObject({
      version: 2,
      content: "Ran a half marathon",
      occurred_at: "2024-09-22T08:00:00.000Z",
    });
    const edited = await t.request("PATCH", `/v1/memories/${m.memory_id}`, {
      key: a.key,
      body: { content: "Ran a full marathon" },
    });
    expect(edited.body).toMatchObject({ version: 3, occurred_at: "2024-09-22T08:00:00.000Z" });
    const history = await t.request("GET", `/v1/memories/${m.memory_id}/history`, { key: a.key });
    expect(history.body.versions.map((v: { occurred_at: string }) => v.occurred_at)).toEqual([
      "2024-09-15T00:00:00.000Z",
      "2024-09-22T08:00:00.000Z",
      "2024-09-22T08:00:00.000Z",
    ]);
    const bad = await t.request("PATCH", `/v1/memories/${m.memory_id}`, {
      key: a.key,
      body: { occurred_at: "soon" },
    });
    expect(bad.status, show(bad)).toBe(422);
    expect(bad.body.errors[0].path).toContain("occurred_at");
    expect(
      (await t.request("GET", `/v1/memories/${m.memory_id}`, { key: a.key })).body.version,
    ).toBe(3);
  });

  test("conversation turns carry when they were said, on the append answer, the listing and the turn's memory", async () => {
    const conv = await t.request("POST", "/v1/conversations", {
      key: a.key,
      body: { agent_id: "ev-chat" },
    });
    const id = conv.body.conversation_id;
    const said = await t.request("POST", `/v1/conversations/${id}/turns`, {
      key: a.key,
      body: {
        role: "user",
        content: "We finally closed on the house!",
        occurred_at: "2023-06-02T19:05:00Z",
      },
    });
    expect(said.status, show(said)).toBe(201);
    expect(said.body.occurred_at).toBe("2023-06-02T19:05:00.000Z");
    const now = await t.request("POST", `/v1/conversations/${id}/turns`, {
      key: a.key,
      body: { role: "assistant", content: "Congratulations!" },
    });
    const nowMemory = await t.request("GET", `/v1/memories/${now.body.memory_id}`, { key: a.key });
    expect(now.body.occurred_at).toBe(nowMemory.body.created_at);
    const bad = await t.request("POST", `/v1/conversations/${id}/turns`, {
      key: a.key,
      body: { role: "user", content: "x", occurred_at: "last tuesday" },
    });
    expect(bad.status, show(bad)).toBe(422);
    const list = await t.request("GET", `/v1/conversations/${id}/turns`, { key: a.key });
    expect(list.body.items.map((i: { occurred_at: string }) => i.occurred_at)).toEqual([
      "2023-06-02T19:05:00.000Z",
      now.body.occurred_at,
    ]);
    const memory = await t.request("GET", `/v1/memories/${said.body.memory_id}`, { key: a.key });
    expect(memory.body.occurred_at).toBe("2023-06-02T19:05:00.000Z");
  });
});

describe("recall on event time", () => {
  const AGENT = "ev-recall";
  let ids: string[];
  beforeAll(async () => {
    const res = await t.request("POST", "/v1/memories/batch", {
      key: a.key,
      body: {
        memories: [
          {
            agent_id: AGENT,
            content: "Caroline went to a pride parade with friends",
            occurred_at: "2023-05-20T15:00:00Z",
          }, // 0
          {
            agent_id: AGENT,
            content: "Caroline started pottery classes on Saturdays",
            occurred_at: "2023-07-08T10:00:00Z",
          }, // 1
          {
            agent_id: AGENT,
            content: "Melanie ran a charity race for mental health",
            occurred_at: "2023-05-27T09:00:00Z",
          }, // 2
          {
            agent_id: AGENT,
            content: "Melanie painted a sunset over the lake",
            occurred_at: "2023-08-14T18:00:00Z",
          }, // 3
          { agent_id: AGENT, content: "Caroline is thinking about adopting a child" }, // 4: today
        ],
      },
    });
    expect(res.status, show(res)).toBe(201);
    ids = res.body.memories.map((m: { memory_id: string }) => m.memory_id);
  });

  test("results carry occurred_at, and filters.occurred_after/occurred_before select by event time", async () => {
    const res = await recall(t, a.key, {
      agent_id: AGENT,
      query: "Caroline Melanie",
      strategy: "LEXICAL",
      top_k: 10,
      filters: { occurred_after: "2023-05-01T00:00:00Z", occurred_before: "2023-06-01T00:00:00Z" },
    });
    expect(res.status, show(res)).toBe(200);
    expect(idsOf(res).sort()).toEqual([ids[0]!, ids[2]!].sort());
    expect(res.body.results.map((r: { occurred_at: string }) => r.occurred_at).sort()).toEqual([
      "2023-05-20T15:00:00.000Z",
      "2023-05-27T09:00:00.000Z",
    ]);
    const inverted = await recall(t, a.key, {
      agent_id: AGENT,
      query: "Caroline",
      filters: { occurred_after: "2023-06-01T00:00:00Z", occurred_before: "2023-05-01T00:00:00Z" },
    });
    expect(inverted.status, show(inverted)).toBe(422);
    expect(inverted.body.errors[0].path).toBe("/filters/occurred_before");
  });

  test("a dated conversation stored today is found by its date: TEMPORAL keeps its window, AUTO ranks by it", async () => {
    const query = "what did Caroline do in May 2023";
    const res = await recall(t, a.key, { agent_id: AGENT, query, strategy: "TEMPORAL", top_k: 5 });
    expect(res.status, show(res)).toBe(200);
    expect(res.body.window).toMatchObject({
      from: "2023-05-01T00:00:00.000Z",
      to: "2023-06-01T00:00:00.000Z",
      expression: "May 2023",
    });
    expect(idsOf(res)).toEqual([ids[0]!, ids[2]!]);
    // AUTO reads the same window as a signal, never a filter: Caroline's May memory leads, the rest
    // follow.
    const auto = await recall(t, a.key, { agent_id: AGENT, query, top_k: 5 });
    expect(auto.status, show(auto)).toBe(200);
    expect(auto.body.window).toMatchObject({ expression: "May 2023" });
    expect(idsOf(auto)[0]).toBe(ids[0]!);
    expect(idsOf(auto)).toContain(ids[1]!);
  });

  test("'after <event>' is dated by the event time of the memory that names it", async () => {
    const res = await recall(t, a.key, {
      agent_id: AGENT,
      query: "what did Melanie do after the charity race",
      strategy: "TEMPORAL",
      top_k: 5,
    });
    expect(res.status, show(res)).toBe(200);
    expect(res.body.window.from).toBe("2023-05-27T09:00:00.001Z");
    expect(idsOf(res)[0]).toBe(ids[3]!);
    expect(idsOf(res)).not.toContain(ids[0]!);
    expect(idsOf(res)).not.toContain(ids[2]!);
  });

  test("a time word with no resolvable window never silently empties the answer", async () => {
    const noEvent = await recall(t, a.key, {
      agent_id: AGENT,
      query: "what did Caroline do before the moon landing",
      strategy: "TEMPORAL",
    });
    expect(noEvent.status, show(noEvent)).toBe(200);
    expect(noEvent.body.window).toBeNull();
    expect(noEvent.body.note).toContain("no memory names");
    expect(idsOf(noEvent)).toContain(ids[0]!);

    const emptyWindow = await recall(t, a.key, {
      agent_id: AGENT,
      query: "what did Caroline do in 1999",
      strategy: "TEMPORAL",
      top_k: 5,
    });
    expect(emptyWindow.status, show(emptyWindow)).toBe(200);
    expect(emptyWindow.body.strategy).toBe("TEMPORAL");
    expect(emptyWindow.body.window).toMatchObject({
      from: "1999-01-01T00:00:00.000Z",
      to: "2000-01-01T00:00:00.000Z",
    });
    expect(emptyWindow.body.note).toContain("ranked over all time instead");
    expect(idsOf(emptyWindow).length).toBeGreaterThan(0);
    expect(idsOf(emptyWindow)).toContain(ids[1]!);

    const when = await recall(t, a.key, {
      agent_id: AGENT,
      query: "when did Caroline start pottery classes",
    });
    expect(when.status, show(when)).toBe(200);
    expect(idsOf(when)[0]).toBe(ids[1]!);
  });

  test("a caller's event-time filter still holds when the query's window is empty", async () => {
    const res = await recall(t, a.key, {
      agent_id: AGENT,
      query: "Caroline in 1999",
      strategy: "TEMPORAL",
      filters: { occurred_after: "2023-07-01T00:00:00Z" },
    });
    expect(res.status, show(res)).toBe(200);
    expect(res.body.note).toContain("ranked over all time instead");
    expect(idsOf(res).sort()).toEqual([ids[1]!, ids[3]!, ids[4]!].sort());
  });
});
