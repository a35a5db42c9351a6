// GET /v1/ingest/loaders: every registered loader, and whether this server can use it right now.
import type { Ports } from "../ports/ports";
import { LOADERS } from "./formats/registry";

/** Whether image and audio ingest can run: the gate is on and the LLM provider can see and hear. */
export function mediaAvailable(deps: Pick<Ports, "config" | "llm">): boolean {
  return (
    deps.config.MULTIMODAL_ENABLED &&
    typeof deps.llm.describeImage === "function" &&
    typeof deps.llm.transcribeAudio === "function"
  );
}

export function listLoaders(deps: Pick<Ports, "config" | "llm">) {
  const media = mediaAvailable(deps);
  return {
    loaders: LOADERS.map((l) => ({
      id: l.id,
      mime_types: [...l.mimeTypes],
      extensions: [...l.extensions],
      needs_multimodal: l.needsMultimodal,
      available: !l.needsMultimodal || media,
      description: l.description,
    })),
  };
}
