// Hostile inputs (issue 23, item 9) through the real app in both database modes: out-of-range dates
// are 422s everywhere (one shared bound) and never 500s from query text, invalid UTF-8 is a 400,
// numbers are not read out of strings, and refine names only a live dataset of the caller.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { show, testApp, type Tenant, type TestApp } from "../../harness/app";
import { embeddedApp } from "../../harness/embedded-app";

const FAR = "+010000-01-01T00:00:00Z";
const GATES = { REFINE_ENABLED: true, INGEST_ENABLED: true };

const MODES = [
  [
    "PostgreSQL",
    async () => {
      const t = await testApp(GATES);
      return { app: t, tenant: (n: string) => t.tenant(n), close: t.close };
    },
  ],
  [
    "embedded",
    async () => {
      const e = await embeddedApp("inputs", GATES);
      return { app: e.app, tenant: (n: string) => e.tenant(`${n}-${Date.now()}`), close: e.close };
    },
  ],
] as const;

for (const [mode, open] of MODES) {
  describe(`hostile inputs (${mode})`, () => {
    let t: TestApp;
    let a: Tenant;
    let b: Tenant;
    let close: () => Promise<void>;
    beforeAll(async () => {
      const opened = await open();
      ({ app: t, close } = opened);
      a = await opened.tenant("inputs-a");
      b = await opened.tenant("inputs-b");
      const stored = await t.request("POST", "/v1/memories", {
        key: a.key,
        body: { agent_id: "ag", content: "We shipped the launch in March." },
      });
      expect(stored.status, show(stored)).toBe(201);
    });
    afterAll(() => close());

    const expect422 = (r: Awaited<ReturnType<TestApp["request"]>>, path: string) => {
      expect(r.status, show(r)).toBe(422);
      expect(r.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    };

    test("an extended-year expires_at is a 422 naming the field", async () => {
      expect422(
        await t.request("POST", "/v1/memories", {
          key: a.key,
          body: { agent_id: "ag", content: "x", expires_at: FAR },
        }),
        "expires_at",
      );
      const batch = await t.request("POST", "/v1/memories/batch", {
        key: a.key,
        body: { memories: [{ agent_id: "ag", content: "x", expires_at: FAR }] },
      });
      expect(batch.status, show(batch)).toBe(422);
    });

    test("recall's date filters and as_of are bounded", async () => {
      for (const field of [
        "created_after",
        "created_before",
        "occurred_after",
        "occurred_before",
      ]) {
        const r = await t.request("POST", "/v1/memories/recall", {
          key: a.key,
          body: { agent_id: "ag", query: "launch", filters: { [field]: FAR } },
        });
        expect422(r, `/filters/${field}`);
      }
      expect422(
        await t.request("POST", "/v1/memories/recall", {
          key: a.key,
          body: { agent_id: "ag", query: "launch", as_of: "-000001-01-01T00:00:00Z" },
        }),
        "/as_of",
      );
    });

    test("graph/data?as_of= is bounded", async () => {
      const r = await t.request(
        "GET",
        `/v1/graph/data?agent_id=ag&as_of=${encodeURIComponent(FAR)}`,
        { key: a.key },
      );
      expect(r.status, show(r)).toBe(422);
      expect(JSON.stringify(r.body.errors)).toContain("as_of");
    });

    test("dates out of range in query text are not read as times, and never a 500", async () => {
      for (const query of [
        "what happened after 9999-12-31",
        "what happened before 0000-01-01",
        "launch after 0001-01-01",
        "launch since 9999-12-31",
      ]) {
        const r = await t.request("POST", "/v1/memories/recall", {
          key: a.key,
          body: { agent_id: "ag", query },
        });
        expect(r.status, `${query}: ${show(r)}`).toBe(200);
      }
    });

    test("invalid UTF-8 in a JSON body is a 400 problem, not stored with U+FFFD", async () => {
      const bytes = new Uint8Array([
        ...new TextEncoder().encode('{"agent_id":"ag","content":"bad '),
        0xff,
        0xfe,
        ...new TextEncoder().encode('"}'),
      ]);
      const r = await t.request("POST", "/v1/memories", {
        key: a.key,
        rawBody: bytes,
        headers: { "content-type": "application/json" },
      });
      expect(r.status, show(r)).toBe(400);
      expect(r.body.detail).toContain("UTF-8");
    });

    test("integers are not read out of strings, like other numbers", async () => {
      expect422(
        await t.request("POST", "/v1/memories/recall", {
          key: a.key,
          body: { agent_id: "ag", query: "launch", top_k: "3" },
        }),
        "/top_k",
      );
      expect422(
        await t.request("POST", "/v1/memories", {
          key: a.key,
          body: { agent_id: "ag", content: "x", ttl_seconds: "60" },
        }),
        "/ttl_seconds",
      );
      expect422(
        await t.request("POST", "/v1/memories", {
          key: a.key,
          body: { agent_id: "ag", content: "x", importance: "0.9" },
        }),
        "/importance",
      );
      const fine = await t.request("POST", "/v1/memories/recall", {
        key: a.key,
        body: { agent_id: "ag", query: "launch", top_k: 3 },
      });
      expect(fine.status, show(fine)).toBe(200);
      const query = await t.request("GET", "/v1/api-keys?limit=5", { key: a.key });
      expect(query.status, show(query)).toBe(200);
    });

    test("refine refuses a nonsense or another tenant's dataset_id", async () => {
      const theirs = await t.request("POST", "/v1/datasets", {
        key: b.key,
        body: { name: "b-only" },
      });
      expect(theirs.status, show(theirs)).toBe(201);
      for (const datasetId of ["nonsense", theirs.body.dataset_id ?? theirs.body.id]) {
        expect422(
          await t.request("POST", "/v1/refine", { key: a.key, body: { dataset_id: datasetId } }),
          "/dataset_id",
        );
      }
    });
  });
}
