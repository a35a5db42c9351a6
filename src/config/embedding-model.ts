// EMBEDDING_PROVIDER=onnx reads its vector size from the model directory at boot: a missing or
// unusable directory is a configuration error, and EMBEDDING_DIMENSIONS, when unset, becomes the
// model's size (so the vector index built at boot and the generation match what the model makes).
import { readOnnxModelDir } from "../lib/onnx/model-dir";

/** Checks and completes the onnx settings of a schema-valid candidate, in place; its problems. */
export function embeddingModelProblems(
  candidate: Record<string, unknown>,
  dimensionsSet: boolean,
): string[] {
  if (candidate.EMBEDDING_PROVIDER !== "onnx") return [];
  const dir = candidate.EMBEDDING_MODEL_PATH as string | undefined;
  if (!dir) {
    return [
      "EMBEDDING_MODEL_PATH must be set when EMBEDDING_PROVIDER=onnx " +
        "(a directory with model.onnx and tokenizer.json)",
    ];
  }
  let dimensions: number;
  try {
    dimensions = readOnnxModelDir(dir).dimensions;
  } catch (error) {
    return [(error as Error).message];
  }
  if (dimensionsSet && candidate.EMBEDDING_DIMENSIONS !== dimensions) {
    return [
      `EMBEDDING_DIMENSIONS=${String(candidate.EMBEDDING_DIMENSIONS)} but the model in ` +
        `EMBEDDING_MODEL_PATH makes ${dimensions}-dimension vectors: unset it or set ${dimensions}`,
    ];
  }
  if (dimensions > 2000) {
    return [
      `EMBEDDING_MODEL_PATH: the model makes ${dimensions}-dimension vectors; ` +
        "pgvector indexes at most 2000",
    ];
  }
  candidate.EMBEDDING_DIMENSIONS = dimensions;
  return [];
}
