// A tiny BERT-shaped sentence-embedding model directory, written by hand for tests (no downloaded
// weights): model.onnx is `last_hidden_state = Gather(table, input_ids)` with the three BERT
// inputs, tokenizer.json a WordPiece tokenizer over a small vocabulary, and optionally the pooling
// config.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const TINY_VOCAB = [
  "[PAD]",
  "[UNK]",
  "[CLS]",
  "[SEP]",
  "the",
  "kafka",
  "runbook",
  "broker",
  "vault",
  "secret",
  "un",
  "##believ",
  "##able",
  "##s",
  "pager",
  "duty",
  "cafe",
  ",",
  ".",
  "!",
  "rotate",
  "##d",
  "team",
  "grafana",
];

// Minimal protobuf writer: varints and length-delimited fields are all an ONNX ModelProto needs
// here.
const varint = (n: number): number[] => {
  const out: number[] = [];
  while (n > 127) {
    out.push((n & 127) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
};
const key = (field: number, wire: number) => varint(field * 8 + wire);
const int = (field: number, n: number) => [...key(field, 0), ...varint(n)];
const bytes = (field: number, data: ArrayLike<number>) => [
  ...key(field, 2),
  ...varint(data.length),
  ...Array.from(data),
];
const text = (field: number, s: string) => bytes(field, new TextEncoder().encode(s));

const INT64 = 7;
const FLOAT = 1;
const dim = (d: number | string) => bytes(1, typeof d === "number" ? int(1, d) : text(2, d));
const valueInfo = (name: string, elemType: number, dims: Array<number | string>) => [
  ...text(1, name),
  ...bytes(
    2,
    bytes(1, [
      ...int(1, elemType),
      ...bytes(
        2,
        dims.flatMap((d) => dim(d)),
      ),
    ]),
  ),
];

/**
 * The table row of token id i: distinct, deterministic, not unit length (so normalisation shows).
 */
export function tableRow(id: number, dims: number): number[] {
  return Array.from({ length: dims }, (_, k) =>
    Math.fround(Math.sin(id * 1.7 + k * 0.9) * (1 + (id % 3))),
  );
}

export function tinyModelBytes(dims: number, vocabSize = TINY_VOCAB.length): Uint8Array {
  const table = new Float32Array(vocabSize * dims);
  for (let id = 0; id < vocabSize; id++) table.set(tableRow(id, dims), id * dims);
  const initializer = [
    ...int(1, vocabSize),
    ...int(1, dims),
    ...int(2, FLOAT),
    ...text(8, "embeddings"),
    ...bytes(9, new Uint8Array(table.buffer)),
  ];
  const gather = [
    ...text(1, "embeddings"),
    ...text(1, "input_ids"),
    ...text(2, "last_hidden_state"),
    ...text(3, "gather"),
    ...text(4, "Gather"),
  ];
  const graph = [
    ...bytes(1, gather),
    ...text(2, "tiny-bert"),
    ...bytes(5, initializer),
    ...bytes(11, valueInfo("input_ids", INT64, ["batch", "sequence"])),
    ...bytes(11, valueInfo("attention_mask", INT64, ["batch", "sequence"])),
    ...bytes(11, valueInfo("token_type_ids", INT64, ["batch", "sequence"])),
    ...bytes(12, valueInfo("last_hidden_state", FLOAT, ["batch", "sequence", dims])),
  ];
  const model = [
    ...int(1, 8),
    ...text(2, "svc-test"),
    ...bytes(7, graph),
    ...bytes(8, [...text(1, ""), ...int(2, 13)]),
  ];
  return new Uint8Array(model);
}

export function tinyTokenizerJson(
  options: { lowercase?: boolean; maxLength?: number } = {},
): object {
  return {
    version: "1.0",
    truncation: options.maxLength
      ? { direction: "Right", max_length: options.maxLength, strategy: "LongestFirst", stride: 0 }
      : null,
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: options.lowercase ?? true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      special_tokens: { "[CLS]": { id: "[CLS]", ids: [2] }, "[SEP]": { id: "[SEP]", ids: [3] } },
    },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(TINY_VOCAB.map((token, id) => [token, id])),
    },
  };
}

export type TinyModelOptions = {
  dims?: number;
  pooling?: "mean" | "cls";
  normalize?: boolean;
  maxLength?: number;
};

/** Writes the model directory; returns its path. */
export function writeTinyModelDir(options: TinyModelOptions = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-tiny-bert-"));
  writeFileSync(path.join(dir, "model.onnx"), tinyModelBytes(options.dims ?? 12));
  writeFileSync(
    path.join(dir, "tokenizer.json"),
    JSON.stringify(tinyTokenizerJson({ maxLength: options.maxLength })),
  );
  if (options.pooling) {
    mkdirSync(path.join(dir, "1_Pooling"));
    writeFileSync(
      path.join(dir, "1_Pooling", "config.json"),
      JSON.stringify({
        word_embedding_dimension: options.dims ?? 12,
        pooling_mode_cls_token: options.pooling === "cls",
        pooling_mode_mean_tokens: options.pooling === "mean",
      }),
    );
    const modules = [
      { idx: 0, name: "0", path: "", type: "sentence_transformers.models.Transformer" },
      { idx: 1, name: "1", path: "1_Pooling", type: "sentence_transformers.models.Pooling" },
    ];
    if (options.normalize !== false)
      modules.push({
        idx: 2,
        name: "2",
        path: "2_Normalize",
        type: "sentence_transformers.models.Normalize",
      });
    writeFileSync(path.join(dir, "modules.json"), JSON.stringify(modules));
  }
  return dir;
}
