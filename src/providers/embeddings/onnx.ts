// The in-process model embedder: a sentence-embedding ONNX model from EMBEDDING_MODEL_PATH, run by
// onnxruntime-web's WebAssembly backend (one thread, no workers, nothing fetched), fed by our
// WordPiece tokenizer, pooled (mean over the attention mask, or CLS) and L2-normalised as the
// model's config says. The .wasm is embedded in the single binary (a file import) and handed to the
// runtime as bytes.
import * as ort from "onnxruntime-web/wasm";
import wasmFile from "onnxruntime-web/ort-wasm-simd-threaded.wasm" with { type: "file" };
import { readFileSync } from "node:fs";
import { readOnnxModelDir, type OnnxModelDir } from "../../lib/onnx/model-dir";
import { EmbeddingUnavailableError, type EmbeddingProvider, type EmbeddingResult } from "./port";
import { encode } from "../../lib/onnx/wordpiece";

/** Texts per run: a batch is padded to its longest text, so small batches waste little. */
const BATCH = 16;

let runtimeReady: Promise<void> | null = null;
function prepareRuntime(): Promise<void> {
  runtimeReady ??= (async () => {
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.proxy = false;
    ort.env.wasm.wasmBinary = await Bun.file(wasmFile).arrayBuffer();
  })();
  return runtimeReady;
}

/** Pools one text's token states [seq, dims] at batch row `row` into a sentence vector. */
export function pool(
  states: Float32Array,
  row: number,
  seq: number,
  dims: number,
  mask: number[],
  model: Pick<OnnxModelDir, "pooling" | "normalize">,
): number[] {
  const out = new Array<number>(dims).fill(0);
  const base = row * seq * dims;
  if (model.pooling === "cls") {
    for (let k = 0; k < dims; k++) out[k] = states[base + k]!;
  } else {
    let count = 0;
    for (let t = 0; t < seq; t++) {
      if (!mask[t]) continue;
      count++;
      for (let k = 0; k < dims; k++) out[k]! += states[base + t * dims + k]!;
    }
    for (let k = 0; k < dims; k++) out[k]! /= Math.max(count, 1);
  }
  if (model.normalize) {
    const norm = Math.sqrt(out.reduce((n, x) => n + x * x, 0));
    for (let k = 0; k < dims; k++) out[k]! /= Math.max(norm, 1e-12);
  }
  return out;
}

export function createOnnxEmbedder(dir: string): EmbeddingProvider {
  const model = readOnnxModelDir(dir);
  let session: Promise<ort.InferenceSession> | null = null;
  // One run at a time: a session of the WebAssembly backend refuses concurrent runs.
  let queue: Promise<unknown> = Promise.resolve();

  const open = () =>
    (session ??= prepareRuntime().then(() =>
      ort.InferenceSession.create(readFileSync(model.modelFile), {
        executionProviders: ["wasm"],
        graphOptimizationLevel: "all",
      }),
    ));

  async function run(texts: string[]): Promise<EmbeddingResult> {
    const s = await open();
    const ids = texts.map((text) => encode(text, model.tokenizer, model.maxLength));
    const seq = Math.max(...ids.map((row) => row.length));
    const inputIds = new BigInt64Array(texts.length * seq).fill(BigInt(model.tokenizer.padId));
    const mask = new BigInt64Array(texts.length * seq);
    ids.forEach((row, r) =>
      row.forEach((id, t) => {
        inputIds[r * seq + t] = BigInt(id);
        mask[r * seq + t] = 1n;
      }),
    );
    const shape = [texts.length, seq];
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor("int64", inputIds, shape),
      attention_mask: new ort.Tensor("int64", mask, shape),
      token_type_ids: new ort.Tensor("int64", new BigInt64Array(texts.length * seq), shape),
    };
    // Exports differ in which inputs they declare (some have no token_type_ids): feed only those.
    const answer = await s.run(Object.fromEntries(s.inputNames.map((n) => [n, feeds[n]!])));
    const states = answer[model.output.name]!.data as Float32Array;
    const vectors = ids.map((row, r) =>
      model.output.pooled
        ? pool(states, r, 1, model.dimensions, [1], { pooling: "cls", normalize: model.normalize })
        : pool(
            states,
            r,
            seq,
            model.dimensions,
            row.map(() => 1),
            model,
          ),
    );
    return { vectors, tokens: ids.reduce((n, row) => n + row.length, 0) };
  }

  return {
    name: "onnx",
    model: model.model,
    dimensions: model.dimensions,
    async embed(texts: string[]): Promise<EmbeddingResult> {
      const vectors: number[][] = [];
      let tokens = 0;
      for (let i = 0; i < texts.length; i += BATCH) {
        const batch = texts.slice(i, i + BATCH);
        const turn = queue.then(() => run(batch));
        queue = turn.catch(() => undefined);
        try {
          const result = await turn;
          vectors.push(...result.vectors);
          tokens += result.tokens;
        } catch (error) {
          const reason = (error as Error).message;
          throw new EmbeddingUnavailableError(`the ONNX model in ${dir} failed: ${reason}`, error);
        }
      }
      return { vectors, tokens };
    },
  };
}
