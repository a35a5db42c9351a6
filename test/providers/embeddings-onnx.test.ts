// The onnx embedder on a tiny BERT-shaped model written by the test: WordPiece tokenisation, mean
// and CLS pooling, normalisation and batching against references computed here from the model's own
// table, the vector size read from the graph, and the boot-time checks of EMBEDDING_MODEL_PATH.
import { afterAll, expect, test } from "bun:test";
import { rmSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConfigError, loadConfig } from "../../src/config/load";
import { createOnnxEmbedder } from "../../src/providers/embeddings/onnx";
import { readOnnxModelDir } from "../../src/lib/onnx/model-dir";
import { onnxOutputs } from "../../src/lib/onnx/outputs";
import { encode, wordPieceSpec } from "../../src/lib/onnx/wordpiece";
import {
  tableRow,
  TINY_VOCAB,
  tinyModelBytes,
  tinyTokenizerJson,
  writeTinyModelDir,
} from "../harness/tiny-bert-model";

const DIMS = 16;
const dirs: string[] = [];
const modelDir = (options: Parameters<typeof writeTinyModelDir>[0] = {}) => {
  const dir = writeTinyModelDir({ dims: DIMS, ...options });
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const id = (token: string) => {
  const found = TINY_VOCAB.indexOf(token);
  if (found < 0) throw new Error(`not in the test vocabulary: ${token}`);
  return found;
};
const ids = (...tokens: string[]) => tokens.map(id);
const ctx = { orgId: "org_test" };

/**
 * The reference: the table rows of the tokens, averaged (the mask covers exactly them), then
 * L2-normalised.
 */
function reference(tokens: string[], normalize = true): number[] {
  const sum = new Array<number>(DIMS).fill(0);
  for (const token of tokens)
    tableRow(id(token), DIMS).forEach((x, k) => {
      sum[k]! += x;
    });
  const mean = sum.map((x) => x / tokens.length);
  const norm = Math.sqrt(mean.reduce((n, x) => n + x * x, 0));
  return normalize ? mean.map((x) => x / norm) : mean;
}
const expectClose = (actual: number[], expected: number[]) => {
  expect(actual.length).toBe(expected.length);
  actual.forEach((x, k) => expect(x).toBeCloseTo(expected[k]!, 5));
};

test("WordPiece: lowercasing, accents, punctuation, ## continuation pieces, unknown words, [CLS]/[SEP]", () => {
  const spec = wordPieceSpec(tinyTokenizerJson());
  expect(encode("The Kafka runbook", spec, 512)).toEqual(
    ids("[CLS]", "the", "kafka", "runbook", "[SEP]"),
  );
  expect(encode("Unbelievables, CAFÉ!", spec, 512)).toEqual(
    ids("[CLS]", "un", "##believ", "##able", "##s", ",", "cafe", "!", "[SEP]"),
  );
  // A word with any piece missing is one [UNK], not a partial match.
  expect(encode("zebra unbelievablex vault", spec, 512)).toEqual(
    ids("[CLS]", "[UNK]", "[UNK]", "vault", "[SEP]"),
  );
  // Control characters are dropped by clean_text, a tab is whitespace.
  expect(encode("rotated\tsecrets\u0000.", spec, 512)).toEqual(
    ids("[CLS]", "rotate", "##d", "secret", "##s", ".", "[SEP]"),
  );
  expect(encode("", spec, 512)).toEqual(ids("[CLS]", "[SEP]"));
});

test("WordPiece: without lowercasing, case is kept (and so misses the vocabulary)", () => {
  const spec = wordPieceSpec(tinyTokenizerJson({ lowercase: false }));
  expect(encode("Kafka kafka", spec, 512)).toEqual(ids("[CLS]", "[UNK]", "kafka", "[SEP]"));
});

test("truncation keeps [CLS] and [SEP] within the model's max length", () => {
  const spec = wordPieceSpec(tinyTokenizerJson());
  expect(encode("the kafka broker vault secret pager", spec, 5)).toEqual(
    ids("[CLS]", "the", "kafka", "broker", "[SEP]"),
  );
  expect(encode("unbelievables", spec, 4)).toEqual(ids("[CLS]", "un", "##believ", "[SEP]"));
  expect(readOnnxModelDir(modelDir({ maxLength: 7 })).maxLength).toBe(7);
});

test("the vector size is read from the graph's output shape", () => {
  expect(onnxOutputs(tinyModelBytes(24))).toEqual([
    { name: "last_hidden_state", shape: ["batch", "sequence", 24] },
  ]);
  const dir = modelDir();
  expect(createOnnxEmbedder(dir).dimensions).toBe(DIMS);
  expect(
    loadConfig({}, { EMBEDDING_PROVIDER: "onnx", EMBEDDING_MODEL_PATH: dir }).EMBEDDING_DIMENSIONS,
  ).toBe(DIMS);
});

test("mean pooling over the attention mask and L2 normalisation match the table rows, across batches", async () => {
  const e = createOnnxEmbedder(modelDir({ pooling: "mean" }));
  expect(e.name).toBe("onnx");
  expect(e.model).toMatch(/^onnx:svc-tiny-bert-\w+@[0-9a-f]{12}$/);
  // 40 texts of different lengths: three batches, each padded to its longest text.
  const texts = Array.from(
    { length: 40 },
    (_, i) =>
      ["kafka", "the vault secret rotated", "Unbelievable pager duty, team grafana!"][i % 3]!,
  );
  const expected = [
    reference(["[CLS]", "kafka", "[SEP]"]),
    reference(["[CLS]", "the", "vault", "secret", "rotate", "##d", "[SEP]"]),
    reference([
      "[CLS]",
      "un",
      "##believ",
      "##able",
      "pager",
      "duty",
      ",",
      "team",
      "grafana",
      "!",
      "[SEP]",
    ]),
  ];
  const { vectors, tokens } = await e.embed(texts, ctx);
  expect(vectors.length).toBe(40);
  vectors.forEach((v, i) => expectClose(v, expected[i % 3]!));
  expect(tokens).toBe(texts.reduce((n, _, i) => n + [3, 7, 11][i % 3]!, 0));
});

test("CLS pooling without Normalize in modules.json returns the [CLS] state as is", async () => {
  const e = createOnnxEmbedder(modelDir({ pooling: "cls", normalize: false }));
  const { vectors } = await e.embed(["kafka broker", "vault"], ctx);
  for (const v of vectors) expectClose(v, tableRow(id("[CLS]"), DIMS));
});

test("concurrent calls are all answered, each with its own vectors", async () => {
  const e = createOnnxEmbedder(modelDir());
  const answers = await Promise.all(
    ["kafka", "vault", "pager", "grafana"].map((w) => e.embed([w], ctx)),
  );
  answers.forEach((a, i) =>
    expectClose(
      a.vectors[0]!,
      reference(["[CLS]", ["kafka", "vault", "pager", "grafana"][i]!, "[SEP]"]),
    ),
  );
});

test("boot refuses a missing or incomplete model directory, naming EMBEDDING_MODEL_PATH", () => {
  const problem = (env: Record<string, unknown>) => {
    try {
      loadConfig({}, env);
    } catch (error) {
      return (error as ConfigError).problems.join("\n");
    }
    return "";
  };
  expect(problem({ EMBEDDING_PROVIDER: "onnx" })).toContain("EMBEDDING_MODEL_PATH must be set");
  expect(
    problem({ EMBEDDING_PROVIDER: "onnx", EMBEDDING_MODEL_PATH: "/nonexistent/model" }),
  ).toContain("EMBEDDING_MODEL_PATH=/nonexistent/model: no such directory");
  const noTokenizer = modelDir();
  unlinkSync(path.join(noTokenizer, "tokenizer.json"));
  expect(problem({ EMBEDDING_PROVIDER: "onnx", EMBEDDING_MODEL_PATH: noTokenizer })).toContain(
    "no tokenizer.json",
  );
  const noModel = modelDir();
  unlinkSync(path.join(noModel, "model.onnx"));
  expect(problem({ EMBEDDING_PROVIDER: "onnx", EMBEDDING_MODEL_PATH: noModel })).toContain(
    "no model.onnx",
  );
  const notOnnx = modelDir();
  writeFileSync(path.join(notOnnx, "model.onnx"), "not a model");
  expect(problem({ EMBEDDING_PROVIDER: "onnx", EMBEDDING_MODEL_PATH: notOnnx })).toContain(
    "is not an ONNX model",
  );
  const bpe = modelDir();
  writeFileSync(
    path.join(bpe, "tokenizer.json"),
    JSON.stringify({ model: { type: "BPE", vocab: {} } }),
  );
  expect(problem({ EMBEDDING_PROVIDER: "onnx", EMBEDDING_MODEL_PATH: bpe })).toContain(
    "only WordPiece",
  );
  expect(
    problem({
      EMBEDDING_PROVIDER: "onnx",
      EMBEDDING_MODEL_PATH: modelDir(),
      EMBEDDING_DIMENSIONS: 384,
    }),
  ).toContain("EMBEDDING_DIMENSIONS=384 but the model");
});
