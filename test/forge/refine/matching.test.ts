// The pure parts of refine: dedupe's name evidence (trigrams, acronyms, the numbers rule, types)
// and summarize's bounded, deterministic label propagation.
import { describe, expect, test } from "bun:test";
import { labelPropagation } from "../../../src/domain/forge/refine/communities";
import {
  acronymOf,
  differOnlyInNumbers,
  isAcronymPair,
  jaccard,
  nameEvidence,
  trigrams,
  UnionFind,
  type MatchCandidate,
} from "../../../src/domain/forge/refine/dedupe-match";
import { normalizeName } from "../../../src/domain/graph/normalize";

const memo = (
  id: string,
  name: string,
  type = "ORG",
  neighbours: string[] = [],
  aliases: string[] = [],
): MatchCandidate => ({
  memo_id: id,
  memo_type: type,
  normalized_name: normalizeName(name),
  aliases: aliases.map(normalizeName),
  neighbours: new Set(neighbours),
});

describe("dedupe evidence", () => {
  test("trigrams follow pg_trgm's padding; similar spellings score high, different names low", () => {
    expect([...trigrams("cat")].sort()).toEqual(["  c", " ca", "at ", "cat"]);
    expect(jaccard(trigrams("acme corp"), trigrams("acme corp"))).toBe(1);
    expect(jaccard(trigrams("microsoft"), trigrams("microsfot"))).toBeGreaterThan(0.4);
    expect(jaccard(trigrams("berlin"), trigrams("paris"))).toBe(0);
  });

  test("acronyms: NYC / New York City, N.Y.C. too; one-word names have none", () => {
    expect(acronymOf("new york city")).toBe("nyc");
    expect(acronymOf("berlin")).toBeNull();
    expect(isAcronymPair("nyc", "new york city")).toBe(true);
    expect(isAcronymPair("new york city", "n.y.c")).toBe(true);
    expect(isAcronymPair("nyc", "new jersey city")).toBe(false);
  });

  test("names that differ in their numbers never merge, even with an exact shared word", () => {
    expect(differOnlyInNumbers("python 2", "python 3")).toBe(true);
    expect(differOnlyInNumbers("iphone 14", "iphone")).toBe(true);
    expect(differOnlyInNumbers("v1.2", "v1.3")).toBe(true);
    expect(differOnlyInNumbers("windows 11", "win 11")).toBe(false);
    expect(
      nameEvidence(
        memo("a", "Python 2", "TOOL", ["USES<x"]),
        memo("b", "Python 3", "TOOL", ["USES<x"]),
      ),
    ).toBeNull();
  });

  test("exact name or alias short-circuits; types must agree (CONCEPT agrees with anything, half)", () => {
    expect(
      nameEvidence(memo("a", "Acme"), memo("b", "Acme Corporation", "ORG", [], ["acme"])),
    ).toMatchObject({ kind: "exact", matched: "acme" });
    expect(nameEvidence(memo("a", "Jordan", "PERSON"), memo("b", "Jordan", "PLACE"))).toBeNull();
    expect(
      nameEvidence(memo("a", "Jordan", "CONCEPT"), memo("b", "Jordan", "PLACE")),
    ).toMatchObject({ kind: "exact" });
  });

  test("fuzzy score: 0.5 trigram (1 for an acronym) + 0.3 shared typed neighbours + 0.2 type agreement", () => {
    const strong = nameEvidence(
      memo("a", "IBM", "ORG", ["WORKS_AT<ada", "LOCATED_IN>ny"]),
      memo("b", "International Business Machines", "ORG", ["WORKS_AT<ada", "LOCATED_IN>ny"]),
    );
    expect(strong).toMatchObject({ kind: "fuzzy", acronym: true, score: 1 });
    const weak = nameEvidence(memo("a", "AI", "CONCEPT"), memo("b", "Adobe Illustrator", "TOOL"));
    expect(weak).toMatchObject({ kind: "fuzzy", acronym: true, score: 0.6 });
  });

  test("union-find groups", () => {
    const uf = new UnionFind();
    uf.union("a", "b");
    uf.union("c", "b");
    uf.union("d", "e");
    expect(uf.groups(["a", "b", "c", "d", "e", "f"]).map((g) => g.sort())).toEqual([
      ["a", "b", "c"],
      ["d", "e"],
    ]);
  });
});

describe("label propagation", () => {
  test("two dense groups joined by a weak bridge stay two communities; the result is deterministic", () => {
    const edges = [
      { a: "a1", b: "a2", weight: 1 },
      { a: "a2", b: "a3", weight: 1 },
      { a: "a1", b: "a3", weight: 1 },
      { a: "b1", b: "b2", weight: 1 },
      { a: "b2", b: "b3", weight: 1 },
      { a: "b1", b: "b3", weight: 1 },
      { a: "a3", b: "b1", weight: 0.01 },
    ];
    const nodes = ["b3", "a1", "b1", "a2", "a3", "b2", "lone"];
    const first = labelPropagation(nodes, edges, 20);
    expect(first.converged).toBe(true);
    expect(first.clusters.map((c) => c.sort()).sort()).toEqual([
      ["a1", "a2", "a3"],
      ["b1", "b2", "b3"],
      ["lone"],
    ]);
    expect(labelPropagation([...nodes].reverse(), [...edges].reverse(), 20)).toEqual(first);
  });

  test("the iteration cap bounds every run", () => {
    // A long path converges slowly: with a cap of 1 it stops unconverged, after exactly one sweep.
    const nodes = Array.from({ length: 50 }, (_, i) => `n${String(i).padStart(2, "0")}`);
    const edges = nodes.slice(1).map((n, i) => ({ a: nodes[i]!, b: n, weight: 1 }));
    const capped = labelPropagation(nodes, edges, 1);
    expect(capped.iterations).toBe(1);
    expect(capped.converged).toBe(false);
  });
});
