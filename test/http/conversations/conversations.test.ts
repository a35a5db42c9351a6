// Conversations through HTTP: open/read/delete, turns contiguous under concurrent appends,
// needs_summary, paging, deleted → 410 on append, turns stored as `turn` memories recallable after
// delete, 404s.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { show, testApp, type TestApp, type Tenant } from "../../harness/app";

let t: TestApp;
let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  t = await testApp({
    CONVERSATION_SUMMARY_TURNS: 3,
    CONVERSATION_SUMMARY_TOKENS: 1000,
    DATABASE_POOL_MAX: 20,
  });
  a = await t.tenant("conv-a");
  b = await t.tenant("conv-b");
});
afterAll(() => t.close());

const open = async (
  key: string,
  body: unknown = { agent_id: "agent-c", title: "Planning", metadata: { topic: "launch" } },
) => {
  const res = await t.request("POST", "/v1/conversations", { key, body });
  expect(res.status, show(res)).toBe(201);
  return res.body.conversation_id as string;
};
const append = (key: string, id: string, body: unknown) =>
  t.request("POST", `/v1/conversations/${id}/turns`, { key, body });

describe("conversations", () => {
  test("open and read", async () => {
    const id = await open(a.key);
    const res = await t.request("GET", `/v1/conversations/${id}`, { key: a.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      conversation_id: id,
      agent_id: "agent-c",
      title: "Planning",
      metadata: { topic: "launch" },
      state: "open",
      turn_count: 0,
      needs_summary: false,
      deleted_at: null,
    });
  });

  test("turn_index is contiguous from 0, also under 30 concurrent appends", async () => {
    const id = await open(a.key);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        append(a.key, id, { role: i % 2 ? "assistant" : "user", content: `message number ${i}` }),
      ),
    );
    expect(
      results.every((r) => r.status === 201),
      results.map(show).find((s) => !s.startsWith("201")),
    ).toBe(true);
    expect(results.map((r) => r.body.turn_index).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 30 }, (_, i) => i),
    );
    const read = await t.request("GET", `/v1/conversations/${id}`, { key: a.key });
    expect(read.body.turn_count).toBe(30);
    const listed: number[] = [];
    let after = -1;
    for (;;) {
      const page = await t.request(
        "GET",
        `/v1/conversations/${id}/turns?after_turn=${after}&limit=7`,
        { key: a.key },
      );
      expect(page.status, show(page)).toBe(200);
      listed.push(...page.body.items.map((x: any) => x.turn_index));
      if (page.body.next_after_turn === null) break;
      after = page.body.next_after_turn;
    }
    expect(listed).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  test("needs_summary after CONVERSATION_SUMMARY_TURNS turns; a summary turn resets it", async () => {
    const id = await open(a.key);
    const flags = [];
    for (const role of ["user", "assistant", "user", "summary", "user"])
      flags.push(
        (await append(a.key, id, { role, content: `${role} says hi` })).body.needs_summary,
      );
    expect(flags).toEqual([false, false, true, false, false]);
  });

  test("needs_summary after CONVERSATION_SUMMARY_TOKENS estimated tokens", async () => {
    const id = await open(a.key);
    expect(
      (await append(a.key, id, { role: "user", content: "z".repeat(3996) })).body.needs_summary,
    ).toBe(false);
    expect(
      (await append(a.key, id, { role: "user", content: "z".repeat(8) })).body.needs_summary,
    ).toBe(true);
  });

  test("turns are `turn` memories with their metadata; listing shows content and metadata", async () => {
    const id = await open(a.key);
    const turn = await append(a.key, id, {
      role: "user",
      content: "The launch is on Friday",
      metadata: { lang: "en" },
    });
    const memory = await t.request("GET", `/v1/memories/${turn.body.memory_id}`, { key: a.key });
    expect(memory.status, show(memory)).toBe(200);
    expect(memory.body).toMatchObject({
      agent_id: "agent-c",
      memory_type: "turn",
      content: "The launch is on Friday",
      metadata: { lang: "en", conversation_id: id, turn_index: 0, role: "user" },
    });
    const list = await t.request("GET", `/v1/conversations/${id}/turns`, { key: a.key });
    expect(list.body.items[0]).toMatchObject({
      turn_index: 0,
      role: "user",
      content: "The launch is on Friday",
      forgotten: false,
      memory_id: turn.body.memory_id,
    });
  });

  test("delete is soft: read and list still work, append is 410, delete again is 409, turns stay recallable", async () => {
    const id = await open(a.key, { agent_id: "agent-recall" });
    await append(a.key, id, { role: "user", content: "Our quarterly offsite happens in Lisbon" });
    const del = await t.request("DELETE", `/v1/conversations/${id}`, { key: a.key });
    expect(del.status, show(del)).toBe(200);
    expect(del.body.state).toBe("deleted");
    expect((await t.request("GET", `/v1/conversations/${id}`, { key: a.key })).body.state).toBe(
      "deleted",
    );
    expect(
      (await t.request("GET", `/v1/conversations/${id}/turns`, { key: a.key })).body.items.length,
    ).toBe(1);
    const late = await append(a.key, id, { role: "user", content: "too late" });
    expect(late.status).toBe(410);
    expect(late.body.type).toEndWith("/errors/gone");
    expect((await t.request("DELETE", `/v1/conversations/${id}`, { key: a.key })).status).toBe(409);
    const recall = await t.request("POST", "/v1/memories/recall", {
      key: a.key,
      body: { agent_id: "agent-recall", query: "Lisbon offsite", strategy: "LEXICAL" },
    });
    expect(recall.status, show(recall)).toBe(200);
    expect(recall.body.results.map((r: any) => r.content)).toContain(
      "Our quarterly offsite happens in Lisbon",
    );
    const vector = await t.request("POST", "/v1/memories/recall", {
      key: a.key,
      body: { agent_id: "agent-recall", query: "quarterly offsite in Lisbon", strategy: "VECTOR" },
    });
    expect(vector.body.results[0]?.content).toBe("Our quarterly offsite happens in Lisbon");
  });

  test("bad bodies and queries are 422", async () => {
    const id = await open(a.key);
    for (const body of [
      {},
      { agent_id: "" },
      { agent_id: "x", metadata: [] },
      { agent_id: "x", title: "t".repeat(501) },
    ]) {
      expect(
        (await t.request("POST", "/v1/conversations", { key: a.key, body })).status,
        JSON.stringify(body),
      ).toBe(422);
    }
    for (const body of [
      { role: "user" },
      { role: "robot", content: "x" },
      { role: "user", content: "" },
      { role: "user", content: "x", metadata: 3 },
    ]) {
      expect((await append(a.key, id, body)).status, JSON.stringify(body)).toBe(422);
    }
    for (const q of ["limit=0", "limit=201", "after_turn=-2", "after_turn=abc"]) {
      expect(
        (await t.request("GET", `/v1/conversations/${id}/turns?${q}`, { key: a.key })).status,
        q,
      ).toBe(422);
    }
    expect(
      (await t.request("GET", `/v1/conversations/${id}`, { key: a.key })).body.turn_count,
    ).toBe(0);
  });

  test("unknown, malformed and other tenants' conversation ids are 404 on every route", async () => {
    const id = await open(a.key);
    for (const cid of [id, "conv_01ARZ3NDEKTSV4RRFFQ69G5FAV", "nope"]) {
      expect((await t.request("GET", `/v1/conversations/${cid}`, { key: b.key })).status).toBe(404);
      expect(
        (await t.request("GET", `/v1/conversations/${cid}/turns`, { key: b.key })).status,
      ).toBe(404);
      expect((await append(b.key, cid, { role: "user", content: "hi" })).status).toBe(404);
      expect((await t.request("DELETE", `/v1/conversations/${cid}`, { key: b.key })).status).toBe(
        404,
      );
    }
    expect((await t.request("GET", `/v1/conversations/${id}`, { key: a.key })).body).toMatchObject({
      state: "open",
      turn_count: 0,
    });
  });
});
