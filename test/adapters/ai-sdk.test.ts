// The Vercel AI SDK adapter in a real generateText tool loop: a fake chat-completions model calls
// the remember, recall and forget tools, which reach the real app over HTTP, in both database
// modes; the example runs as written, and recalled memories reach the model's system prompt.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateText, stepCountIs } from "ai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { memoryPrompt, svcMemoryTools } from "../../adapters/ai-sdk/src/index";
import { startToolModel } from "../harness/fake-tool-model";
import { runExample, servedModes, type Served } from "./served-modes";

const AGENT = "tea-assistant";
const FACT = "my favourite tea is smoky lapsang souchong";

for (const mode of servedModes("adapter-ai")) {
  describe(`AI SDK adapter (${mode.name})`, () => {
    let s: Served;
    beforeAll(async () => {
      s = await mode.open();
    }, 180_000);
    afterAll(async () => {
      await s?.close();
    });

    test("the example's agent loop stores through remember, then recalls it in a later run", async () => {
      const storing = startToolModel([
        { tool: "remember", args: { content: FACT } },
        { answer: "Stored:" },
      ]);
      const env = {
        SVC_URL: s.url,
        SVC_API_KEY: s.tenant.key,
        OPENAI_BASE_URL: storing.url,
        MODEL: "fake",
      };
      const first = await runExample("ai-sdk", [`Remember that ${FACT}.`], env).finally(() =>
        storing.stop(),
      );
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain('Stored: {"memory_id":"mem_');
      const offered = storing.requests[0]!.body.tools.map((t: any) => t.function.name);
      expect(offered.sort()).toEqual(["forget", "recall", "remember"]);

      const asking = startToolModel([
        { tool: "recall", args: { query: "favourite tea" } },
        { answer: "You said:" },
      ]);
      const second = await runExample("ai-sdk", ["Which tea do I like?"], {
        ...env,
        OPENAI_BASE_URL: asking.url,
      }).finally(() => asking.stop());
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain("lapsang souchong");
      // The memory was in the prompt before any tool ran: memoryPrompt put it in the system
      // message.
      const system = asking.requests[0]!.body.messages.find((m: any) => m.role === "system");
      expect(system?.content).toContain(FACT);
    }, 60_000);

    test("forget, called by the model, removes the memory from recall", async () => {
      const stored = await s.svc.memories.store({
        agent_id: AGENT,
        content: "the boiler code is 4417",
      });
      const model = startToolModel([
        { tool: "forget", args: { memory_id: stored.memory_id } },
        { answer: "Forgot:" },
      ]);
      const provider = createOpenAICompatible({ name: "fake", baseURL: model.url, apiKey: "none" });
      try {
        const { text } = await generateText({
          model: provider.chatModel("fake"),
          tools: svcMemoryTools(s.svc, { agentId: AGENT }),
          stopWhen: stepCountIs(4),
          prompt: "Forget the boiler code.",
        });
        expect(text).toContain(stored.memory_id);
      } finally {
        model.stop();
      }
      const after = await s.svc.memories.recall({
        agent_id: AGENT,
        query: "boiler code",
        strategy: "LEXICAL",
      });
      expect(after.results.map((r) => r.memory_id)).not.toContain(stored.memory_id);
    }, 60_000);

    test("memoryPrompt is empty when nothing relevant is stored", async () => {
      expect(await memoryPrompt(s.svc, { agentId: "nobody-yet", query: "anything" })).toBe("");
    });
  });
}
