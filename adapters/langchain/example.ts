// A LangChain.js tool loop whose history lives in an svc conversation and whose `recall` tool
// searches svc through SvcRetriever. Needs SVC_URL, SVC_API_KEY, OPENAI_BASE_URL and MODEL;
// CONVERSATION_ID continues a conversation.
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { z } from "zod";
import { SvcClient } from "@svc/sdk";
import { SvcChatMessageHistory, SvcRetriever } from "@svc/langchain";

const svc = new SvcClient({ baseUrl: process.env.SVC_URL!, apiKey: process.env.SVC_API_KEY! });
const retriever = new SvcRetriever({ svc, agentId: "pet-assistant" });
const history = new SvcChatMessageHistory({
  svc,
  agentId: "pet-assistant",
  conversationId: process.env.CONVERSATION_ID,
});
const recall = tool(
  async ({ query }) => (await retriever.invoke(query)).map((d) => d.pageContent).join("\n"),
  {
    name: "recall",
    description: "Search what the user said before.",
    schema: z.object({ query: z.string() }),
  },
);
const model = new ChatOpenAI({
  model: process.env.MODEL ?? "gpt-4o-mini",
  apiKey: process.env.OPENAI_API_KEY ?? "none",
  configuration: { baseURL: process.env.OPENAI_BASE_URL },
}).bindTools([recall]);

const turn: BaseMessage[] = [new HumanMessage(process.argv[2] ?? "My dog is called Biscuit.")];
for (let step = 0; step < 5; step++) {
  const reply = await model.invoke([...(await history.getMessages()), ...turn]);
  turn.push(reply);
  if (!reply.tool_calls?.length) break;
  for (const call of reply.tool_calls) {
    const content = await recall.invoke(call.args as { query: string });
    turn.push(new ToolMessage({ content, tool_call_id: call.id! }));
  }
}
await history.addMessages(turn);
console.log(turn.at(-1)!.text);
console.log(`conversation: ${await history.getConversationId()}`);
