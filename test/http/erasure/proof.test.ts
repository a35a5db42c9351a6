// The erasure proof, in both database modes: a subject seeded through every route that holds its
// data (store, batch, PATCH, conversations, idempotent stores; ingest for a whole-agent erasure)
// is, after POST /v1/erasures, in no column of any table, no read route and no export; the version
// 3 certificate verifies offline; the agent's other subject is untouched.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { verifyCertificate } from "../../../src/domain/forget-proof/verify";
import { startWorker, type RunningWorker } from "../../../src/queue/worker";
import { show, type Tenant, type TestApp } from "../../harness/app";
import { twoTenantModes } from "../../harness/two-tenant-modes";
import { eventually } from "../../queue/wait";
import { withTenant } from "../../../src/data/with-tenant";
import { distillOverHttp, storeOverHttp } from "../../graph/done-when";
import { refine } from "../refine/helpers";
import { erase, tablesHolding } from "./helpers";

const GONE = "zqvgonemarker";
const KEPT = "zqvkeptmarker";
const STRATEGIES = ["AUTO", "VECTOR", "LEXICAL", "TEMPORAL", "CODE"];

for (const mode of twoTenantModes("erasure")) {
  describe(`subject erasure (${mode.name})`, () => {
    let t: TestApp;
    let a: Tenant;
    let worker: RunningWorker;
    let close: () => Promise<void>;
    const sql = () => ((t as unknown as { owner?: unknown }).owner ?? t.deps.db.primary) as never;
    const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      t.request(method, path, { key: a.key, body, headers });

    beforeAll(async () => {
      const opened = await mode.open({
        FORGET_PROOF_ENABLED: true,
        INGEST_ENABLED: true,
        DISTILL_ENABLED: true,
        REFINE_ENABLED: true,
      });
      t = opened.app;
      a = opened.tenants[0];
      close = opened.close;
      worker = await startWorker(t.deps);
    });
    afterAll(async () => {
      await worker.close();
      await close();
    });

    async function seed(user: string, marker: string): Promise<string[]> {
      const metadata = { user_id: user, path: `src/${marker}.ts` };
      const ids: string[] = [];
      const stored = await call("POST", "/v1/memories", {
        agent_id: "helper",
        content: `${marker} likes tea`,
        metadata,
      });
      expect(stored.status, show(stored)).toBe(201);
      ids.push(stored.body.memory_id);
      const patched = await call("PATCH", `/v1/memories/${stored.body.memory_id}`, {
        content: `${marker} likes coffee now`,
      });
      expect(patched.status, show(patched)).toBe(200);
      const batch = await call("POST", "/v1/memories/batch", {
        memories: [
          { agent_id: "helper", content: `${marker} lives in Lisbon`, metadata },
          {
            agent_id: "helper",
            content: `function ${marker}Handler() {}`,
            metadata: { ...metadata, language: "ts" },
          },
        ],
      });
      expect(batch.status, show(batch)).toBe(201);
      const idem = { "idempotency-key": `idem-${marker}` };
      const keyed = await call(
        "POST",
        "/v1/memories",
        { agent_id: "helper", content: `${marker} keyed`, metadata },
        idem,
      );
      expect(keyed.status, show(keyed)).toBe(201);
      ids.push(keyed.body.memory_id);
      const conversation = await call("POST", "/v1/conversations", {
        agent_id: "helper",
        title: `chat ${marker}`,
        metadata: { user_id: user },
      });
      expect(conversation.status, show(conversation)).toBe(201);
      for (const content of [`hello ${marker}`, `${marker} asked about trains`]) {
        const turn = await call(
          "POST",
          `/v1/conversations/${conversation.body.conversation_id}/turns`,
          { role: "user", content },
        );
        expect(turn.status, show(turn)).toBe(201);
      }
      for (const strategy of STRATEGIES)
        await call("POST", "/v1/memories/recall", { agent_id: "helper", query: marker, strategy });
      return ids;
    }

    async function readRoutesText(ids: string[]): Promise<string> {
      const texts: string[] = [];
      for (const strategy of STRATEGIES) {
        texts.push(
          (
            await call("POST", "/v1/memories/recall", {
              agent_id: "helper",
              query: `${GONE} ${KEPT} tea`,
              strategy,
              top_k: 50,
            })
          ).text,
        );
      }
      texts.push(
        (await call("GET", "/v1/memories?agent_id=helper&include_forgotten=true&limit=200")).text,
      );
      for (const id of ids) texts.push((await call("GET", `/v1/memories/${id}/history`)).text);
      texts.push((await call("GET", "/v1/graph/data?agent_id=helper")).text);
      const exported = await call("GET", "/v1/export");
      expect(exported.status, show(exported)).toBe(200);
      texts.push(exported.text);
      return texts.join("\n");
    }

    test("the erased subject is in no table, no read route and no export; the other subject stays", async () => {
      const goneIds = await seed("u-gone", GONE);
      await seed("u-kept", KEPT);
      expect(await tablesHolding(sql(), a.orgId, GONE)).not.toEqual([]);

      const done = await erase(t, a.key, {
        agent_id: "helper",
        subject: { key: "user_id", value: "u-gone" },
      });
      expect(done, JSON.stringify(done)).toMatchObject({
        state: "succeeded",
        subject_key: "user_id",
      });
      expect(done.counts).toMatchObject({
        memories: 6,
        memory_versions: 7,
        conversations: 1,
        conversation_turns: 2,
      });
      expect(done.counts.idempotency_answers).toBeGreaterThanOrEqual(1);

      expect(await tablesHolding(sql(), a.orgId, GONE)).toEqual([]);
      expect(await tablesHolding(sql(), a.orgId, "u-gone")).toEqual([]);
      const visible = await readRoutesText(goneIds);
      expect(visible).not.toContain(GONE);
      expect(visible).toContain(KEPT);
      const kept = await call("POST", "/v1/memories/recall", {
        agent_id: "helper",
        query: `${KEPT} tea`,
        strategy: "LEXICAL",
      });
      expect(kept.body.results.length, show(kept)).toBeGreaterThan(0);

      const cert = await call("GET", `/v1/forget/${done.cert_id}`);
      expect(cert.status, show(cert)).toBe(200);
      expect(cert.body).toMatchObject({
        version: 3,
        reason: "erasure",
        tree_size: 7 + cert.body.derived.length,
      });
      expect(cert.body.row_counts).toEqual(done.counts);
      const keys = await call("GET", "/v1/forget/keys");
      expect(await verifyCertificate(cert.text, keys.body.keys[0].public_key)).toEqual({
        ok: true,
        cert_id: done.cert_id,
      });
      const tampered = cert.text.replace(`"memories":6`, `"memories":5`);
      expect((await verifyCertificate(tampered, keys.body.keys[0].public_key)).ok).toBe(false);
    });

    test("a whole-agent erasure takes ingested documents and their job rows too", async () => {
      const marker = "zqvingestmarker";
      const ingest = await call("POST", "/v1/ingest", {
        agent_id: "reader",
        text: `${marker} wrote a long report about canals.`,
      });
      expect(ingest.status, show(ingest)).toBe(202);
      await eventually(
        async () => {
          const job = await call("GET", `/v1/ingest/${ingest.body.job_id}`);
          return job.body?.state === "succeeded" ? job.body : null;
        },
        "the ingest job",
        60_000,
      );
      expect(await tablesHolding(sql(), a.orgId, marker)).not.toEqual([]);
      const done = await erase(t, a.key, { agent_id: "reader" });
      expect(done.state).toBe("succeeded");
      expect(done.counts.ingest_chunks).toBeGreaterThan(0);
      expect(await tablesHolding(sql(), a.orgId, marker)).toEqual([]);
      const job = await call("GET", `/v1/ingest/${ingest.body.job_id}`);
      expect(job.status, show(job)).toBe(200);
    });

    test("a whole-agent erasure takes the graph distilled from it and refine's summaries over it", async () => {
      const marker = "Zorvexa";
      const contents = [
        `${marker} works at Quillfen.`,
        `Quillfen is headquartered in Ravnholt.`,
        `${marker} knows Tobrin.`,
        `Tobrin works at Quillfen.`,
      ];
      const ids = await storeOverHttp(call, "grapher", contents);
      const distilled = await distillOverHttp(call, "grapher", ids);
      expect(distilled.state, JSON.stringify(distilled)).toBe("succeeded");
      const summarized = await refine(t, a.key, { passes: ["summarize"] });
      expect(summarized.state, JSON.stringify(summarized)).toBe("succeeded");
      const summaries = await withTenant(
        t.deps.db,
        a.orgId,
        (tx) => tx`
        SELECT count(*)::int AS n FROM memos WHERE agent_id = 'grapher' AND memo_type = 'SUMMARY'`,
      );
      expect(summaries[0]!.n).toBeGreaterThan(0);
      const holding = await tablesHolding(sql(), a.orgId, marker);
      expect(holding).toEqual(expect.arrayContaining(["memos.name", "edges.fact"]));

      const done = await erase(t, a.key, { agent_id: "grapher" });
      expect(done.state, JSON.stringify(done)).toBe("succeeded");
      expect(done.counts.edges_retired).toBeGreaterThan(0);
      for (const word of [marker, "Quillfen", "Ravnholt", "Tobrin"]) {
        expect(await tablesHolding(sql(), a.orgId, word), word).toEqual([]);
      }
      const graph = await call("GET", "/v1/graph/data?agent_id=grapher");
      expect(graph.text).not.toContain(marker);
    });

    test("another tenant's erasure is a 404; a request names its fields", async () => {
      const bad = await call("POST", "/v1/erasures", { agent_id: "", subject: { key: "user_id" } });
      expect(bad.status).toBe(422);
      expect(bad.text).toContain("/agent_id");
      const missing = await call("GET", "/v1/erasures/job_01ARZ3NDEKTSV4RRFFQ69G5FAV");
      expect(missing.status).toBe(404);
    });
  });
}
