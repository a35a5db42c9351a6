// The LLM port's implementations: the OpenAI-compatible client against a fake server, the local
// one, selection.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config/load";
import { AppError } from "../../src/lib/errors";
import { createLocalLlm, extractiveSummary } from "../../src/providers/llm/local";
import { createOpenAiLlm } from "../../src/providers/llm/openai";
import { LlmUnavailableError } from "../../src/providers/llm/port";
import { selectLlm } from "../../src/providers/llm/select";
import { startFakeLlm, type FakeLlm } from "../http/recall/fake-llm";

let fake: FakeLlm;
let reply: FakeLlm["reply"] = () => ({ content: "hello", tokens: 42 });

beforeAll(() => {
  fake = startFakeLlm((body) => reply(body));
});
afterAll(() => fake.stop());

describe("openai client", () => {
  test("sends system + user messages, model, max_tokens, JSON mode; returns text and usage tokens", async () => {
    const llm = createOpenAiLlm({
      apiKey: "sk-llm",
      baseUrl: fake.url,
      model: "m-1",
      timeoutMs: 2000,
    });
    reply = () => ({ content: '{"ok":true}', tokens: 42 });
    const out = await llm.complete(
      { system: "be brief", prompt: "say ok", json: true, maxTokens: 16 },
      { orgId: "org_x" },
    );
    expect(out).toEqual({ text: '{"ok":true}', tokens: 42 });
    const sent = fake.requests.at(-1)!;
    expect(sent.authorization).toBe("Bearer sk-llm");
    expect(sent.body).toMatchObject({
      model: "m-1",
      max_tokens: 16,
      temperature: 0,
      response_format: { type: "json_object" },
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "say ok" },
      ],
    });
    expect(llm.name).toBe("openai");
    expect(llm.model).toBe("m-1");
  });

  test("retries a 5xx once, then succeeds", async () => {
    let calls = 0;
    reply = () => (++calls === 1 ? new Response("{}", { status: 503 }) : { content: "second" });
    const llm = createOpenAiLlm({
      apiKey: "k",
      baseUrl: fake.url,
      model: "m",
      timeoutMs: 2000,
      maxRetries: 1,
    });
    expect((await llm.complete({ prompt: "p" }, { orgId: "o" })).text).toBe("second");
    expect(calls).toBe(2);
  });

  test("outages, timeouts and empty answers become LlmUnavailableError", async () => {
    const llm = createOpenAiLlm({
      apiKey: "k",
      baseUrl: fake.url,
      model: "m",
      timeoutMs: 300,
      maxRetries: 0,
    });
    reply = () => new Response("{}", { status: 500 });
    await expect(llm.complete({ prompt: "p" }, { orgId: "o" })).rejects.toBeInstanceOf(
      LlmUnavailableError,
    );
    reply = () =>
      Response.json({ id: "x", object: "chat.completion", created: 1, model: "m", choices: [] });
    await expect(llm.complete({ prompt: "p" }, { orgId: "o" })).rejects.toBeInstanceOf(
      LlmUnavailableError,
    );
    const hang = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => new Promise<Response>(() => {}),
    });
    const slow = createOpenAiLlm({
      apiKey: "k",
      baseUrl: `http://127.0.0.1:${hang.port}/v1`,
      model: "m",
      timeoutMs: 200,
      maxRetries: 0,
    });
    try {
      const error = await slow.complete({ prompt: "p" }, { orgId: "o" }).catch((e) => e);
      expect(error).toBeInstanceOf(LlmUnavailableError);
      expect(error).not.toBeInstanceOf(AppError);
    } finally {
      hang.stop(true);
    }
  });
});

describe("local", () => {
  test("is deterministic and extractive within the token budget", async () => {
    const llm = createLocalLlm();
    const prompt =
      "Postgres stores the memories. The weather is nice. Postgres indexes memories with HNSW for memories recall.";
    const a = await llm.complete({ prompt, maxTokens: 16 }, { orgId: "o" });
    const b = await llm.complete({ prompt, maxTokens: 16 }, { orgId: "o" });
    expect(a).toEqual(b);
    expect(a.text).toBe("Postgres indexes memories with HNSW for memories recall.");
    expect(a.tokens).toBeGreaterThan(0);
    expect(
      JSON.parse((await llm.complete({ prompt, json: true, maxTokens: 16 }, { orgId: "o" })).text),
    ).toEqual({ summary: a.text });
    expect(extractiveSummary("", 10)).toBe("");
  });
});

describe("selection", () => {
  test("local without a key, openai with one, pinned local wins over a key", () => {
    expect(selectLlm(loadConfig({}, {})).name).toBe("local");
    const withKey = selectLlm(loadConfig({}, { LLM_API_KEY: "sk", LLM_MODEL: "gpt-x" }));
    expect([withKey.name, withKey.model]).toEqual(["openai", "gpt-x"]);
    expect(selectLlm(loadConfig({}, { LLM_API_KEY: "sk", LLM_PROVIDER: "local" })).name).toBe(
      "local",
    );
  });
});
