// An OpenAI Agents SDK agent with svc memory tools and its history in an svc conversation. Needs
// SVC_URL, SVC_API_KEY, OPENAI_BASE_URL (any chat-completions server) and MODEL;
// CONVERSATION_ID continues a conversation.
import { Agent, OpenAIProvider, Runner } from "@openai/agents";
import { SvcClient } from "@svc/sdk";
import { SvcSession, svcMemoryTools } from "@svc/openai-agents";

const svc = new SvcClient({ baseUrl: process.env.SVC_URL!, apiKey: process.env.SVC_API_KEY! });
const agent = new Agent({
  name: "Travel assistant",
  instructions: "Remember what the user tells you about their trips; recall before you answer.",
  model: process.env.MODEL ?? "gpt-4o-mini",
  tools: svcMemoryTools(svc, { agentId: "travel-assistant" }),
});
const provider = new OpenAIProvider({
  baseURL: process.env.OPENAI_BASE_URL,
  apiKey: process.env.OPENAI_API_KEY ?? "none",
  useResponses: false,
});
const runner = new Runner({ modelProvider: provider, tracingDisabled: true });
const session = new SvcSession(svc, {
  agentId: "travel-assistant",
  conversationId: process.env.CONVERSATION_ID,
});

const input = process.argv[2] ?? "Remember that my passport expires in March 2031.";
const result = await runner.run(agent, input, { session });
console.log(result.finalOutput);
console.log(`conversation: ${await session.getSessionId()}`);
