// A fake OpenAI-compatible model that drives an agent loop: each chat completion request takes the
// next scripted step, a tool call or a final answer that quotes the last tool result it was sent.
import { startFakeLlm, type FakeLlm } from "../http/recall/fake-llm";

export type ModelStep = { tool: string; args: Record<string, unknown> } | { answer: string };

/**
 * The chat-completions body of one step; a final answer ends with the latest tool message's text.
 */
function completion(step: ModelStep, body: any, callNumber: number): Response {
  const base = {
    id: `chatcmpl-${callNumber}`,
    object: "chat.completion",
    created: 1,
    model: body?.model ?? "fake",
  };
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if ("tool" in step) {
    const call = {
      id: `call_${callNumber}`,
      type: "function",
      function: { name: step.tool, arguments: JSON.stringify(step.args) },
    };
    const message = { role: "assistant", content: null, tool_calls: [call] };
    return Response.json({
      ...base,
      choices: [{ index: 0, message, finish_reason: "tool_calls" }],
      usage,
    });
  }
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const lastTool = messages.filter((m) => m.role === "tool").at(-1);
  const quoted =
    typeof lastTool?.content === "string"
      ? lastTool.content
      : JSON.stringify(lastTool?.content ?? "");
  const message = {
    role: "assistant",
    content: lastTool ? `${step.answer} ${quoted}` : step.answer,
  };
  return Response.json({ ...base, choices: [{ index: 0, message, finish_reason: "stop" }], usage });
}

/**
 * Serves `steps` in order (one per request; past the end it repeats the last). `requests` keeps
 * each body, so a test sees the tools offered and the messages the framework sent back.
 */
export function startToolModel(steps: ModelStep[]): FakeLlm {
  let calls = 0;
  return startFakeLlm((body) => {
    const step = steps[Math.min(calls, steps.length - 1)]!;
    return completion(step, body, ++calls);
  });
}
