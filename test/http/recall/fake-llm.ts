// A fake OpenAI-compatible chat completions server: answers with whatever the test scripts.
export type FakeLlm = {
  url: string;
  requests: Array<{ path: string; body: any; authorization: string | null }>;
  reply: (body: any) => Response | { content: string; tokens?: number };
  stop(): void;
};

export function startFakeLlm(reply: FakeLlm["reply"]): FakeLlm {
  const fake: FakeLlm = { url: "", requests: [], reply, stop: () => server.stop(true) };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const body: any = await request.json().catch(() => null);
      const path = new URL(request.url).pathname;
      fake.requests.push({ path, body, authorization: request.headers.get("authorization") });
      if (path !== "/v1/chat/completions") return new Response("not found", { status: 404 });
      const answer = fake.reply(body);
      if (answer instanceof Response) return answer;
      return Response.json({
        id: "chatcmpl-fake",
        object: "chat.completion",
        created: 1,
        model: body?.model ?? "fake",
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: answer.content },
            finish_reason: "stop",
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: answer.tokens ?? 15 },
      });
    },
  });
  fake.url = `http://127.0.0.1:${server.port}/v1`;
  return fake;
}
