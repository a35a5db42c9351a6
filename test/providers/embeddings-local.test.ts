// The local embedder: deterministic, unit length, right dimension, and similarity that follows
// meaning.
import { expect, test } from "bun:test";
import { createLocalEmbedder } from "../../src/providers/embeddings/local";

const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const ctx = { orgId: "org_test" };

test("vectors are deterministic, of the configured size and L2-normalised", async () => {
  const e = createLocalEmbedder(256);
  const [v1] = (await e.embed(["The quick brown fox"], ctx)).vectors;
  const [v2] = (await createLocalEmbedder(256).embed(["The quick brown fox"], ctx)).vectors;
  expect(v1).toEqual(v2!);
  expect(v1!.length).toBe(256);
  expect(Math.sqrt(cos(v1!, v1!))).toBeCloseTo(1, 5);
  expect(e.model).toBe("svc-local-hash-v1-256");
});

test("text without any word character still gets a unit vector", async () => {
  const [v] = (await createLocalEmbedder(64).embed(["?!… —"], ctx)).vectors;
  expect(Math.sqrt(cos(v!, v!))).toBeCloseTo(1, 5);
});

test("paraphrases and inflections are closer than unrelated text", async () => {
  const e = createLocalEmbedder(1536);
  const [base, paraphrase, inflected, unrelated] = (
    await e.embed(
      [
        "The user prefers dark mode in the editor",
        "user preferred dark-mode editors",
        "Users prefer the editor in dark mode",
        "Quarterly invoices are sent to the billing contact",
      ],
      ctx,
    )
  ).vectors;
  expect(cos(base!, paraphrase!)).toBeGreaterThan(0.5);
  expect(cos(base!, inflected!)).toBeGreaterThan(0.7);
  expect(cos(base!, unrelated!)).toBeLessThan(0.2);
});

test("stopwords alone do not make texts similar; typos stay close through character trigrams", async () => {
  const e = createLocalEmbedder(1536);
  const [a, b, c, d] = (
    await e.embed(
      [
        "the cat is on the mat",
        "the dog is in the house",
        "kubernetes deployment",
        "kubernetse deploymnet",
      ],
      ctx,
    )
  ).vectors;
  expect(cos(a!, b!)).toBeLessThan(0.2);
  expect(cos(c!, d!)).toBeGreaterThan(0.3);
});

test("counts estimated tokens", async () => {
  expect((await createLocalEmbedder(32).embed(["abcd".repeat(10), "xy"], ctx)).tokens).toBe(11);
});
