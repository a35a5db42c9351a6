// Issue 27's README promises: a newcomer reads what default recall finds (keyword and event time,
// offline, no semantics) and where semantics come from, and how to turn the graph on to see one.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";

const root = new URL("../../", import.meta.url).pathname;
const readme = readFileSync(`${root}README.md`, "utf8");

/** The README's section under `heading`, up to the next heading of the same level. */
function section(heading: string): string {
  const start = readme.indexOf(`### ${heading}\n`);
  expect(start, `README has "### ${heading}"`).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf("\n### ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

test("the README says what default recall finds and links the way to semantics", () => {
  const recall = section("What recall finds");
  expect(recall).toMatch(/offline and keyword based/);
  expect(recall).toMatch(/no semantics/);
  expect(recall).toContain("(docs/embeddings.md)");
  expect(existsSync(`${root}docs/embeddings.md`)).toBe(true);
});

test("the README says how to turn the graph on and fill it", () => {
  const graph = section("Seeing a graph");
  expect(graph).toContain("DISTILL_ENABLED=true");
  expect(graph).toContain("/v1/distill");
});
