// Reads an ONNX sentence-embedding model directory at boot, without running it: the files that must
// be there, the vector size from the graph's output shape, the tokenizer, the pooling and
// normalisation of the sentence-transformers config, and the max sequence length. Errors name
// EMBEDDING_MODEL_PATH.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { wordPieceSpec, type WordPieceSpec } from "./wordpiece";
import { onnxOutputs } from "./outputs";

export type OnnxModelDir = {
  modelFile: string;
  /** `onnx:<directory name>@<content hash>`: a new model in the directory is a new generation. */
  model: string;
  dimensions: number;
  /** The output read: token states to pool [batch, seq, dims] or sentence vectors [batch, dims]. */
  output: { name: string; pooled: boolean };
  tokenizer: WordPieceSpec;
  pooling: "mean" | "cls";
  normalize: boolean;
  maxLength: number;
};

export class ModelDirError extends Error {
  constructor(dir: string, problem: string) {
    super(`EMBEDDING_MODEL_PATH=${dir}: ${problem} (docs/embeddings.md, Local models)`);
  }
}

const TOKEN_OUTPUTS = ["last_hidden_state", "token_embeddings"];
const DEFAULT_MAX_LENGTH = 512;

const readJson = (dir: string, file: string): unknown => {
  const full = path.join(dir, file);
  if (!existsSync(full)) return undefined;
  try {
    return JSON.parse(readFileSync(full, "utf8"));
  } catch (error) {
    throw new ModelDirError(dir, `${file} is not valid JSON (${(error as Error).message})`);
  }
};

export function readOnnxModelDir(dir: string): OnnxModelDir {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ModelDirError(dir, "no such directory");
  }
  const candidates = ["model.onnx", "onnx/model.onnx"].map((f) => path.join(dir, f));
  const modelFile = candidates.find((f) => existsSync(f));
  if (!modelFile) {
    throw new ModelDirError(dir, "no model.onnx (nor onnx/model.onnx) in the directory");
  }
  const tokenizerJson = readJson(dir, "tokenizer.json");
  if (tokenizerJson === undefined) {
    throw new ModelDirError(dir, "no tokenizer.json in the directory");
  }
  let tokenizer: WordPieceSpec;
  try {
    tokenizer = wordPieceSpec(tokenizerJson);
  } catch (error) {
    throw new ModelDirError(dir, `tokenizer.json: ${(error as Error).message}`);
  }

  const bytes = readFileSync(modelFile);
  let outputs: ReturnType<typeof onnxOutputs>;
  try {
    outputs = onnxOutputs(bytes);
  } catch (error) {
    const reason = (error as Error).message;
    throw new ModelDirError(dir, `${path.basename(modelFile)} is not an ONNX model (${reason})`);
  }
  const tokens = outputs.find((o) => TOKEN_OUTPUTS.includes(o.name) && o.shape.length === 3);
  const pooled = outputs.find((o) => o.name === "sentence_embedding" && o.shape.length === 2);
  const chosen = tokens ?? pooled;
  const dimensions = chosen?.shape.at(-1);
  if (!chosen || typeof dimensions !== "number" || dimensions < 1) {
    const found = outputs.map((o) => `${o.name} [${o.shape.join(", ")}]`).join("; ") || "none";
    throw new ModelDirError(
      dir,
      "the model has no last_hidden_state [batch, sequence, dims] " +
        `output with a fixed size (outputs: ${found})`,
    );
  }

  type Pooling = { pooling_mode_cls_token?: boolean };
  const poolingConfig = readJson(dir, "1_Pooling/config.json") as Pooling | undefined;
  const modules = readJson(dir, "modules.json") as Array<{ type?: string }> | undefined;
  type SentenceBert = { max_seq_length?: number };
  const sentenceBert = readJson(dir, "sentence_bert_config.json") as SentenceBert | undefined;
  const truncation = (tokenizerJson as { truncation?: { max_length?: number } | null }).truncation;
  const hash = createHash("sha256")
    .update(bytes)
    .update(JSON.stringify(tokenizerJson))
    .update(JSON.stringify([poolingConfig ?? null, modules ?? null]))
    .digest("hex")
    .slice(0, 12);
  return {
    modelFile,
    model: `onnx:${path.basename(path.resolve(dir))}@${hash}`,
    dimensions,
    output: { name: chosen.name, pooled: chosen === pooled },
    tokenizer,
    pooling: poolingConfig?.pooling_mode_cls_token ? "cls" : "mean",
    // Without modules.json, normalise: svc compares by cosine; unit vectors keep scores comparable.
    normalize: modules ? modules.some((m) => m.type?.endsWith(".Normalize")) : true,
    maxLength: sentenceBert?.max_seq_length ?? truncation?.max_length ?? DEFAULT_MAX_LENGTH,
  };
}
