// Images and audio with MULTIMODAL_ENABLED=true, through the real app and worker, against a fake
// OpenAI-compatible server: the caption or transcript becomes recallable memories. Without a
// provider that can see and hear, an image is a clear 415 at submission, not a job that pretends.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { show, type Tenant } from "../../harness/app";
import { startFakeMediaLlm, wavFile, PNG, type FakeMediaLlm } from "./fake-media-llm";
import { formOf } from "./file-cases";
import { ingestApp, settledJob, type IngestApp } from "./helpers";

const CAPTION =
  "A red lighthouse on a basalt cliff at dusk; a sign on the door reads Keeper's Cottage 1887.";
const TRANSCRIPT =
  "Minutes of the harbour board: the new pontoon opens on the ninth of March, said the chair.";

let fake: FakeMediaLlm;
let app: IngestApp;
let tenant: Tenant;
beforeAll(async () => {
  fake = startFakeMediaLlm({ caption: CAPTION, transcript: TRANSCRIPT });
  app = await ingestApp("ingest-media", {
    MULTIMODAL_ENABLED: true,
    LLM_PROVIDER: "openai",
    LLM_API_KEY: "sk-fake-media",
    LLM_BASE_URL: fake.url,
    LLM_VISION_MODEL: "vision-test",
    LLM_TRANSCRIPTION_MODEL: "whisper-test",
    EXTRACTOR: "local",
    DISTILL_ENABLED: false,
  });
  tenant = await app.t.tenant("ingest-media");
});
afterAll(async () => {
  await app.close();
  fake.stop();
});

describe("multimodal ingest", () => {
  test("the media loaders are available with a provider", async () => {
    const r = await app.t.request("GET", "/v1/ingest/loaders", { key: tenant.key });
    const image = r.body.loaders.find((l: { id: string }) => l.id === "image");
    expect(image).toMatchObject({ needs_multimodal: true, available: true });
  });

  test("an image is captioned by the vision model and the caption is recallable", async () => {
    const r = await app.t.request("POST", "/v1/ingest/file", {
      key: tenant.key,
      rawBody: formOf(
        { agent_id: "viewer" },
        { bytes: PNG, filename: "cliff.png", type: "application/octet-stream" },
      ),
    });
    expect(r.status, show(r)).toBe(202);
    const job = await settledJob(app.t, tenant.key, r.body.job_id);
    expect(job, JSON.stringify(job)).toMatchObject({
      state: "succeeded",
      loader: "image",
      detected_type: "image/png",
      memory_count: 1,
    });
    const memory = (
      await app.t.request("GET", `/v1/memories/${job.memory_ids[0]}`, { key: tenant.key })
    ).body;
    expect(memory).toMatchObject({
      content: CAPTION,
      metadata: { media_kind: "image", media_type: "image/png", source: "cliff.png" },
    });
    const sent = fake.requests.find((q) => q.path === "/v1/chat/completions")!;
    expect(sent.model).toBe("vision-test");
    expect(sent.imageUrl).toBe(`data:image/png;base64,${Buffer.from(PNG).toString("base64")}`);
    const recalled = await app.t.request("POST", "/v1/memories/recall", {
      key: tenant.key,
      body: {
        agent_id: "viewer",
        query: "lighthouse keeper's cottage sign",
        strategy: "VECTOR",
        top_k: 1,
      },
    });
    expect(recalled.body.results[0]?.content).toBe(CAPTION);
  }, 30_000);

  test("audio is transcribed through /v1/audio/transcriptions", async () => {
    const wav = wavFile();
    const r = await app.t.request("POST", "/v1/ingest/file", {
      key: tenant.key,
      rawBody: formOf(
        { agent_id: "listener" },
        { bytes: wav, filename: "board.wav", type: "audio/wav" },
      ),
    });
    expect(r.status, show(r)).toBe(202);
    const job = await settledJob(app.t, tenant.key, r.body.job_id);
    expect(job, JSON.stringify(job)).toMatchObject({
      state: "succeeded",
      loader: "audio",
      detected_type: "audio/wav",
    });
    const memory = (
      await app.t.request("GET", `/v1/memories/${job.memory_ids[0]}`, { key: tenant.key })
    ).body;
    expect(memory.content).toBe(TRANSCRIPT);
    expect(fake.requests.find((q) => q.path === "/v1/audio/transcriptions")).toMatchObject({
      model: "whisper-test",
      fileName: "board.wav",
      fileType: expect.stringMatching(/^audio\/(x-)?wav$/),
      fileSize: wav.length,
    });
  }, 30_000);

  test("with MULTIMODAL_ENABLED but no provider that can see, an image is a 415 at submission", async () => {
    const local = await ingestApp("ingest-media-local", { MULTIMODAL_ENABLED: true });
    try {
      const key = (await local.t.tenant("media-local")).key;
      const r = await local.t.request("POST", "/v1/ingest/file", {
        key,
        rawBody: formOf({ agent_id: "x" }, { bytes: PNG, filename: "a.png", type: "image/png" }),
      });
      expect(r.status, show(r)).toBe(415);
      expect(r.body.detail).toContain("cannot caption images");
      const loaders = await local.t.request("GET", "/v1/ingest/loaders", { key });
      expect(loaders.body.loaders.find((l: { id: string }) => l.id === "audio")).toMatchObject({
        available: false,
      });
    } finally {
      await local.close();
    }
  }, 30_000);
});
