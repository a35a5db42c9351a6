// A local OpenAI-compatible /v1/embeddings endpoint backed by our own local embedder, so the peer
// embeds exactly as we do.
import { createLocalEmbedder } from "../../src/providers/embeddings/local";

export function startEmbedServer(dimensions: number) {
  const embedder = createLocalEmbedder(dimensions);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      if (request.method !== "POST" || !new URL(request.url).pathname.endsWith("/embeddings"))
        return new Response("not found", { status: 404 });
      const body = (await request.json()) as {
        input: string | string[];
        model: string;
        encoding_format?: string;
      };
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      const { vectors, tokens } = await embedder.embed(inputs, { orgId: "bench" });
      const encode = (v: number[]) =>
        body.encoding_format === "base64"
          ? Buffer.from(new Float32Array(v).buffer).toString("base64")
          : v;
      return Response.json({
        object: "list",
        model: body.model,
        data: vectors.map((v, index) => ({ object: "embedding", index, embedding: encode(v) })),
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      });
    },
  });
  return {
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    model: embedder.model,
    stop: () => server.stop(true),
  };
}
