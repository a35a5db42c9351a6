// An AI SDK agent that remembers across runs: recalled memories in the system prompt, memory tools
// in the loop. Needs SVC_URL, SVC_API_KEY, OPENAI_BASE_URL (any chat-completions server) and MODEL.
import { generateText, stepCountIs } from "ai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { SvcClient } from "@svc/sdk";
import { memoryPrompt, svcMemoryTools } from "@svc/ai-sdk";

const svc = new SvcClient({ baseUrl: process.env.SVC_URL!, apiKey: process.env.SVC_API_KEY! });
const provider = createOpenAICompatible({
  name: "chat",
  baseURL: process.env.OPENAI_BASE_URL!,
  apiKey: process.env.OPENAI_API_KEY ?? "none",
});
const prompt = process.argv[2] ?? "Remember that my favourite tea is smoky lapsang souchong.";

const { text } = await generateText({
  model: provider.chatModel(process.env.MODEL ?? "gpt-4o-mini"),
  system: await memoryPrompt(svc, { agentId: "tea-assistant", query: prompt }),
  tools: svcMemoryTools(svc, { agentId: "tea-assistant" }),
  stopWhen: stepCountIs(5),
  prompt,
});
console.log(text);
