// POST /v1/memories/recall/stream: SSE framing, the error event, and cancellation on client
// disconnect.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { withTenant } from "../../../src/data/with-tenant";
import { show, testApp, type Tenant, type TestApp } from "../../harness/app";
import { testDatabaseUrl, testServingDatabaseUrl } from "../../harness/env";
import { lockTable } from "../../harness/table-lock";
import { recall, seed } from "./seed";

const AGENT = "agent-stream";
let t: TestApp;
let a: Tenant;
let ids: string[];

type SseEvent = { event: string | undefined; id?: string; data: any };

function parseSse(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "" && !block.startsWith(":"))
    .map((block) => {
      const fields = Object.fromEntries(
        block
          .split("\n")
          .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
      );
      return { event: fields.event, id: fields.id, data: JSON.parse(fields.data ?? "null") };
    });
}

const stream = (app: TestApp, key: string, body: unknown) =>
  app.request("POST", "/v1/memories/recall/stream", { key, body });

beforeAll(async () => {
  // A long statement timeout, so only a real cancel (not the timeout) can end a blocked query
  // early.
  t = await testApp({ RECALL_TIMEOUT_MS: 30_000 });
  a = await t.tenant("stream");
  ids = await seed(t, a, AGENT, [
    { content: "alpha river stone" },
    { content: "alpha river" },
    { content: "alpha" },
    { content: "unrelated" },
  ]);
});
afterAll(() => t.close());

describe("framing", () => {
  test("one result event per result with a 1-based id, then the summary", async () => {
    const res = await stream(t, a.key, {
      agent_id: AGENT,
      query: "alpha",
      strategy: "LEXICAL",
      top_k: 5,
    });
    expect(res.status, show(res)).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    const events = parseSse(res.text);
    const json = await recall(t, a.key, {
      agent_id: AGENT,
      query: "alpha",
      strategy: "LEXICAL",
      top_k: 5,
    });
    expect(events.map((e) => e.event)).toEqual(["result", "result", "result", "summary"]);
    expect(events.slice(0, 3).map((e) => e.id)).toEqual(["1", "2", "3"]);
    expect(events.slice(0, 3).map((e) => e.data.memory_id)).toEqual(
      json.body.results.map((r: { memory_id: string }) => r.memory_id),
    );
    expect(events[0]!.data).toMatchObject({
      rank: 1,
      content: expect.any(String),
      score: expect.any(Number),
      memory_type: "semantic",
    });
    expect(events[3]!.data).toMatchObject({
      count: 3,
      strategy: "LEXICAL",
      routing: { requested: "LEXICAL", method: "pinned" },
      top_k: 5,
      redactions: 0,
    });
  });

  test("no results: just the summary", async () => {
    const res = await stream(t, a.key, {
      agent_id: AGENT,
      query: "nothing matches zzz",
      strategy: "LEXICAL",
    });
    expect(parseSse(res.text)).toEqual([
      { event: "summary", id: undefined, data: expect.objectContaining({ count: 0 }) },
    ]);
  });

  test("errors known before the stream opens are ordinary problems", async () => {
    expect((await stream(t, a.key, { agent_id: AGENT, query: "x", top_k: 0 })).status).toBe(422);
    expect(
      (await stream(t, a.key, { agent_id: AGENT, query: "x", strategy: "CYPHER" })).status,
    ).toBe(422);
    expect((await stream(t, null as never, { agent_id: AGENT, query: "x" })).status).toBe(401);
  });
});

test("a failure after the stream opened becomes an error event with a problem body", async () => {
  const slow = await testApp({ RECALL_TIMEOUT_MS: 100 });
  const owner = postgres(testDatabaseUrl(), { max: 1, onnotice: () => {} });
  const lock = lockTable(owner, "memories");
  try {
    await lock.isLocked;
    const res = await stream(slow, a.key, { agent_id: AGENT, query: "alpha", strategy: "LEXICAL" });
    expect(res.status, show(res)).toBe(200);
    expect(res.text).toStartWith(": recall started\n\n");
    const events = parseSse(res.text);
    expect(events).toHaveLength(1);
    expect(events[0]!.event).toBe("error");
    expect(events[0]!.data).toMatchObject({
      status: 503,
      type: expect.stringMatching(/\/errors\/service-unavailable$/),
      request_id: expect.any(String),
    });
    expect(events[0]!.data.detail).toContain("did not finish within 100 ms");
  } finally {
    await lock.release();
    await owner.end();
    await slow.close();
  }
});

test("closing the connection cancels the running query, and the cancelled recall is not audited", async () => {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: t.handle });
  const owner = postgres(testDatabaseUrl(), { max: 2, onnotice: () => {} });
  // pg_stat_activity shows a backend's query and wait only to its own role: watch as the serving
  // login.
  const observer = postgres(testServingDatabaseUrl(), { max: 1, onnotice: () => {} });
  const audits = async () =>
    (
      await withTenant(
        t.deps.db,
        a.orgId,
        (tx) =>
          tx<
            { n: number }[]
          >`SELECT count(*)::int AS n FROM audit_pending WHERE operation = 'recall'`,
      )
    )[0]!.n;
  const waitingRecalls = async () =>
    (
      await observer<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND application_name = 'svc-test' AND wait_event_type = 'Lock' AND query LIKE '%FROM memor%'`
    )[0]!.n;
  const before = await audits();
  // An exclusive lock makes the recall's SELECT wait: only a real server-side cancel can end it
  // early.
  const lock = lockTable(owner, "memories");
  try {
    await lock.isLocked;
    const client = new AbortController();
    const response = await fetch(`http://127.0.0.1:${server.port}/v1/memories/recall/stream`, {
      method: "POST",
      headers: { authorization: `Bearer ${a.key}`, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: AGENT, query: "alpha", strategy: "LEXICAL" }),
      signal: client.signal,
    });
    expect(response.status).toBe(200);
    for (let i = 0; i < 200 && (await waitingRecalls()) === 0; i++) await Bun.sleep(25);
    expect(await waitingRecalls()).toBe(1);
    client.abort();
    for (let i = 0; i < 400 && (await waitingRecalls()) > 0; i++) await Bun.sleep(25);
    expect(await waitingRecalls()).toBe(0);
  } finally {
    await lock.release();
    await owner.end();
    await observer.end();
    server.stop(true);
  }
  expect(await audits()).toBe(before);
  const after = await recall(t, a.key, { agent_id: AGENT, query: "alpha", strategy: "LEXICAL" });
  expect(after.body.results.map((r: { memory_id: string }) => r.memory_id)).toContain(ids[2]!);
}, 20_000);
