// A fake OpenAI-compatible server for multimodal ingest: chat completions with an image part answer
// a caption, /v1/audio/transcriptions (multipart, like the real API) answers a transcript. It
// records what it was sent so tests can check the protocol.
export type MediaRequest = {
  path: string;
  model: string | null;
  imageUrl?: string;
  fileName?: string;
  fileType?: string;
  fileSize?: number;
};
export type FakeMediaLlm = { url: string; requests: MediaRequest[]; stop(): void };

export function startFakeMediaLlm(answers: { caption: string; transcript: string }): FakeMediaLlm {
  const requests: MediaRequest[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (request.headers.get("authorization") !== "Bearer sk-fake-media")
        return Response.json({ error: { message: "bad key" } }, { status: 401 });
      if (path === "/v1/chat/completions") {
        const body: any = await request.json();
        const image = body.messages?.[0]?.content?.find?.(
          (part: { type: string }) => part.type === "image_url",
        );
        requests.push({ path, model: body.model, imageUrl: image?.image_url?.url });
        if (!image)
          return Response.json({ error: { message: "expected an image part" } }, { status: 400 });
        return Response.json({
          id: "chatcmpl-fake",
          object: "chat.completion",
          created: 1,
          model: body.model,
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: answers.caption },
              finish_reason: "stop",
            },
          ],
          usage: { prompt_tokens: 850, completion_tokens: 40, total_tokens: 890 },
        });
      }
      if (path === "/v1/audio/transcriptions") {
        const form = await request.formData();
        const file = form.get("file") as File | null;
        requests.push({
          path,
          model: form.get("model") as string | null,
          fileName: file?.name,
          fileType: file?.type,
          fileSize: file?.size,
        });
        if (!file)
          return Response.json({ error: { message: "file is required" } }, { status: 400 });
        return Response.json({ text: answers.transcript });
      }
      return new Response("not found", { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, requests, stop: () => server.stop(true) };
}

/** A tiny WAV file (RIFF/WAVE header and a little silence). */
export function wavFile(): Uint8Array {
  const data = new Uint8Array(800);
  const out = new Uint8Array(44 + data.length);
  const view = new DataView(out.buffer);
  const ascii = (at: number, s: string) =>
    [...s].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, "RIFF");
  view.setUint32(4, 36 + data.length, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 8000, true);
  view.setUint32(28, 8000, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true);
  ascii(36, "data");
  view.setUint32(40, data.length, true);
  return out;
}

/** A 1×1 PNG. */
export const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);
