// The loaders' MediaReader over the (metered) LLM port: a spent budget ends the job `failed` with
// reason budget-exceeded; an unreachable provider is an ordinary error, so the queue retries the
// job.
import type { Ports } from "../../ports/ports";
import type { MediaReader } from "../formats/loader";
import { AppError } from "../../../lib/errors";
import { IngestFailure } from "../payload";

async function guarded(call: () => Promise<{ text: string }>): Promise<string> {
  try {
    return (await call()).text;
  } catch (error) {
    if (error instanceof AppError && error.slug === "budget-exceeded")
      throw new IngestFailure(
        "budget-exceeded",
        `the tenant's token budget is spent: ${error.detail}`,
      );
    throw error;
  }
}

export function mediaReader(
  deps: Pick<Ports, "llm">,
  orgId: string,
  filename: string | null,
): MediaReader {
  const { llm } = deps;
  return {
    describeImage: (image) =>
      guarded(() => llm.describeImage!({ ...image, filename: filename ?? "image" }, { orgId })),
    transcribeAudio: (audio) => guarded(() => llm.transcribeAudio!(audio, { orgId })),
  };
}
