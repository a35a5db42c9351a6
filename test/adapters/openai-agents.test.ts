// The OpenAI Agents SDK adapter in a real Runner loop: a fake chat-completions model calls the
// memory tools, which reach the real app over HTTP, and the run's history lives in an svc
// conversation that a second run continues, in both database modes; the example runs as written.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SvcSession } from "../../adapters/openai-agents/src/index";
import { startToolModel } from "../harness/fake-tool-model";
import { runExample, servedModes, type Served } from "./served-modes";

const FACT = "my passport expires in March 2031";

for (const mode of servedModes("adapter-agents")) {
  describe(`OpenAI Agents SDK adapter (${mode.name})`, () => {
    let s: Served;
    beforeAll(async () => {
      s = await mode.open();
    }, 180_000);
    afterAll(async () => {
      await s?.close();
    });

    test("the example remembers through the tool, and a second run continues the conversation and recalls", async () => {
      const storing = startToolModel([
        { tool: "remember", args: { content: FACT } },
        { answer: "Noted:" },
      ]);
      const env = {
        SVC_URL: s.url,
        SVC_API_KEY: s.tenant.key,
        OPENAI_BASE_URL: storing.url,
        MODEL: "fake",
      };
      const first = await runExample("openai-agents", [`Remember that ${FACT}.`], env).finally(() =>
        storing.stop(),
      );
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain('Noted: {"memory_id":"mem_');
      const offered = storing.requests[0]!.body.tools.map((t: any) => t.function.name);
      expect(offered.sort()).toEqual(["forget", "recall", "remember"]);
      const conversationId = first.stdout.match(/conversation: (\S+)/)![1]!;

      const asking = startToolModel([
        { tool: "recall", args: { query: "passport expires" } },
        { answer: "Found:" },
      ]);
      const second = await runExample("openai-agents", ["When does my passport expire?"], {
        ...env,
        OPENAI_BASE_URL: asking.url,
        CONVERSATION_ID: conversationId,
      }).finally(() => asking.stop());
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain("March 2031");
      // The session gave the model the first run's history back, read from svc.
      const replayed = JSON.stringify(asking.requests[0]!.body.messages);
      expect(replayed).toContain(`Remember that ${FACT}.`);
      expect(replayed).toContain("Noted:");

      const turns = [];
      for await (const turn of s.svc.conversations.allTurns(conversationId)) turns.push(turn);
      expect(turns.map((t) => t.role)).toEqual([
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
        "assistant",
        "tool",
        "assistant",
      ]);
      expect(turns[1]!.content).toStartWith("remember(");
    }, 90_000);

    test("popItem forgets the newest item, clearSession forgets them all", async () => {
      const session = new SvcSession(s.svc, { agentId: "pop-agent" });
      await session.addItems([
        { role: "user", content: "first" },
        { role: "user", content: "second" },
      ]);
      expect(await session.getItems(1)).toEqual([{ role: "user", content: "second" }]);
      expect(await session.popItem()).toEqual({ role: "user", content: "second" });
      expect(await session.getItems()).toEqual([{ role: "user", content: "first" }]);
      await session.clearSession();
      expect(await session.getItems()).toEqual([]);
      expect(await session.popItem()).toBeUndefined();
    }, 30_000);
  });
}
