// The LangChain.js adapter in a real tool loop (ChatOpenAI with bound tools against a fake
// chat-completions model): the history lives in an svc conversation, and the recall tool's
// retriever finds what an earlier run said, over real HTTP in both database modes; the example runs
// as written.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { SvcChatMessageHistory, SvcRetriever } from "../../adapters/langchain/src/index";
import { startToolModel } from "../harness/fake-tool-model";
import { runExample, servedModes, type Served } from "./served-modes";

for (const mode of servedModes("adapter-langchain")) {
  describe(`LangChain.js adapter (${mode.name})`, () => {
    let s: Served;
    beforeAll(async () => {
      s = await mode.open();
    }, 180_000);
    afterAll(async () => {
      await s?.close();
    });

    test("the example's history is stored as turns, and a later run recalls them through the retriever", async () => {
      const chatting = startToolModel([{ answer: "What a lovely name." }]);
      const env = {
        SVC_URL: s.url,
        SVC_API_KEY: s.tenant.key,
        OPENAI_BASE_URL: chatting.url,
        MODEL: "fake",
      };
      const first = await runExample("langchain", ["My dog is called Biscuit."], env).finally(() =>
        chatting.stop(),
      );
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain("What a lovely name.");
      const conversationId = first.stdout.match(/conversation: (\S+)/)![1]!;

      const asking = startToolModel([
        { tool: "recall", args: { query: "dog called" } },
        { answer: "Recalled:" },
      ]);
      const second = await runExample("langchain", ["What is my dog called?"], {
        ...env,
        OPENAI_BASE_URL: asking.url,
        CONVERSATION_ID: conversationId,
      }).finally(() => asking.stop());
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain("Recalled: My dog is called Biscuit.");
      expect(asking.requests[0]!.body.tools.map((t: any) => t.function.name)).toEqual(["recall"]);
      // The history replayed the first run's exchange to the model, read back from svc.
      expect(asking.requests[0]!.body.messages.map((m: any) => m.content)).toEqual([
        "My dog is called Biscuit.",
        "What a lovely name.",
        "What is my dog called?",
      ]);
      const turns = [];
      for await (const turn of s.svc.conversations.allTurns(conversationId)) turns.push(turn);
      expect(turns.map((t) => t.role)).toEqual([
        "user",
        "assistant",
        "user",
        "assistant",
        "tool",
        "assistant",
      ]);
    }, 90_000);

    test("the retriever returns Documents in rank order with the memory id; clear forgets the history", async () => {
      const history = new SvcChatMessageHistory({ svc: s.svc, agentId: "lc-agent" });
      await history.addMessages([
        new HumanMessage("the garage code is 2719"),
        new AIMessage("Noted."),
      ]);
      expect((await history.getMessages()).map((m) => [m.type, m.text])).toEqual([
        ["human", "the garage code is 2719"],
        ["ai", "Noted."],
      ]);
      const retriever = new SvcRetriever({ svc: s.svc, agentId: "lc-agent" });
      const [top] = await retriever.invoke("garage code");
      expect(top?.pageContent).toBe("the garage code is 2719");
      expect(top?.metadata.memory_id).toStartWith("mem_");
      await history.clear();
      expect(await history.getMessages()).toEqual([]);
      expect(await retriever.invoke("garage code")).toEqual([]);
    }, 30_000);
  });
}
