// Sessions through HTTP: start → read → end, ending twice is 409, validation, cross-tenant 404,
// audit.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { drainAudit } from "../../../src/domain/audit/drain";
import { show, testApp, type TestApp, type Tenant } from "../../harness/app";

let t: TestApp;
let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  t = await testApp();
  a = await t.tenant("ses-a");
  b = await t.tenant("ses-b");
});
afterAll(() => t.close());

test("start, read, end; ending twice is a 409", async () => {
  const started = await t.request("POST", "/v1/sessions", {
    key: a.key,
    body: { agent_id: "agent-1", metadata: { channel: "cli" } },
  });
  expect(started.status, show(started)).toBe(201);
  expect(started.body).toMatchObject({
    agent_id: "agent-1",
    metadata: { channel: "cli" },
    state: "active",
    ended_at: null,
  });
  const id = started.body.session_id;
  expect(id).toStartWith("ses_");
  const read = await t.request("GET", `/v1/sessions/${id}`, { key: a.key });
  expect(read.body.state).toBe("active");
  const ended = await t.request("POST", `/v1/sessions/${id}/end`, { key: a.key });
  expect(ended.status, show(ended)).toBe(200);
  expect(ended.body.state).toBe("ended");
  expect(typeof ended.body.ended_at).toBe("string");
  const again = await t.request("POST", `/v1/sessions/${id}/end`, { key: a.key });
  expect(again.status).toBe(409);
  expect(again.body.type).toEndWith("/errors/conflict");
  expect((await t.request("GET", `/v1/sessions/${id}`, { key: a.key })).body.ended_at).toBe(
    ended.body.ended_at,
  );
  await drainAudit(t.deps.db, { orgId: a.orgId });
  const audit = await t.request("GET", "/v1/audit?agent_id=agent-1", { key: a.key });
  expect(audit.body.items.map((r: any) => r.operation)).toEqual(["session.start", "session.end"]);
});

test("concurrent ends: exactly one wins", async () => {
  const id = (await t.request("POST", "/v1/sessions", { key: a.key, body: { agent_id: "x" } })).body
    .session_id;
  const results = await Promise.all(
    Array.from({ length: 8 }, () => t.request("POST", `/v1/sessions/${id}/end`, { key: a.key })),
  );
  expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
});

test("bad bodies are 422", async () => {
  for (const body of [
    {},
    { agent_id: "" },
    { agent_id: "x", metadata: [1] },
    { agent_id: "x", metadata: "s" },
    { agent_id: "x", metadata: { big: "y".repeat(20000) } },
  ]) {
    const res = await t.request("POST", "/v1/sessions", { key: a.key, body });
    expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(422);
  }
});

test("unknown, malformed and other tenants' session ids are 404", async () => {
  const id = (await t.request("POST", "/v1/sessions", { key: a.key, body: { agent_id: "x" } })).body
    .session_id;
  for (const path of [
    `/v1/sessions/${id}`,
    "/v1/sessions/ses_01ARZ3NDEKTSV4RRFFQ69G5FAV",
    "/v1/sessions/nope",
  ]) {
    expect((await t.request("GET", path, { key: b.key })).status).toBe(404);
    expect((await t.request("POST", `${path}/end`, { key: b.key })).status).toBe(404);
  }
  expect((await t.request("GET", `/v1/sessions/${id}`, { key: a.key })).body.state).toBe("active");
});
