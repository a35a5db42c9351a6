// Images and audio (MULTIMODAL_ENABLED): the LLM port captions the image or transcribes the audio,
// and the text it returns is cut into prose chunks. Recognised by their magic numbers only.
import { proseLimits } from "../chunk/limits";
import { chunkProse } from "../chunk/prose";
import { LoaderError, type Loader, type LoaderContext, type LoaderSource } from "../loader";
import { audioKind, imageKind, type MediaKind } from "../sniff";

async function* chunksOf(
  text: string,
  kind: "image" | "audio",
  media: MediaKind,
  ctx: LoaderContext,
) {
  for (const piece of chunkProse(text, proseLimits(ctx))) {
    yield {
      text: piece.text,
      position: { char_start: piece.start, char_end: piece.end },
      metadata: { media_kind: kind, media_type: media.mimeType },
    };
  }
}

async function mediaInput(source: LoaderSource, media: MediaKind) {
  return {
    bytes: await source.bytes(),
    mimeType: media.mimeType,
    filename: source.filename ?? `upload${media.extension}`,
  };
}

export const imageLoader: Loader = {
  id: "image",
  mimeTypes: ["image/png", "image/jpeg", "image/gif", "image/webp"],
  extensions: [".png", ".jpg", ".jpeg", ".gif", ".webp"],
  description:
    "Images (MULTIMODAL_ENABLED): a caption from the vision model (LLM_VISION_MODEL), chunked as prose",
  needsMultimodal: true,
  sniff: (head) => imageKind(head) !== null,
  typeOf: (head) => imageKind(head)!.mimeType,
  async *load(source, ctx) {
    if (!ctx.media)
      throw new LoaderError(
        "needs-multimodal",
        "images need MULTIMODAL_ENABLED=true and an LLM provider that can see images",
      );
    const kind = imageKind(await source.bytes().then((b) => b.subarray(0, 16)))!;
    yield* chunksOf(
      await ctx.media.describeImage(await mediaInput(source, kind)),
      "image",
      kind,
      ctx,
    );
  },
};

export const audioLoader: Loader = {
  id: "audio",
  mimeTypes: ["audio/mpeg", "audio/wav", "audio/ogg", "audio/flac", "audio/mp4", "audio/webm"],
  extensions: [".mp3", ".wav", ".ogg", ".flac", ".m4a", ".webm"],
  description:
    "Audio (MULTIMODAL_ENABLED): a transcript from /v1/audio/transcriptions (LLM_TRANSCRIPTION_MODEL), chunked as prose",
  needsMultimodal: true,
  sniff: (head) => audioKind(head) !== null,
  typeOf: (head) => audioKind(head)!.mimeType,
  async *load(source, ctx) {
    if (!ctx.media)
      throw new LoaderError(
        "needs-multimodal",
        "audio needs MULTIMODAL_ENABLED=true and an LLM provider that can transcribe",
      );
    const kind = audioKind(await source.bytes().then((b) => b.subarray(0, 16)))!;
    yield* chunksOf(
      await ctx.media.transcribeAudio(await mediaInput(source, kind)),
      "audio",
      kind,
      ctx,
    );
  },
};
