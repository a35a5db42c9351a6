// dedupe's evidence that two memos name the same entity, computed in the application: PGlite ships
// no pg_trgm, and under RLS trigram operators could not use an index anyway
// (sql/0110_recall_indexes.sql). Pure functions over normalised names
// (src/domain/graph/normalize.ts).

export type MatchCandidate = {
  memo_id: string;
  memo_type: string;
  normalized_name: string;
  /** Normalised aliases. */
  aliases: string[];
  /**
   * Typed neighbours: `RELATION>memo_id` for outgoing edges, `RELATION<memo_id` for incoming ones.
   */
  neighbours: Set<string>;
};

export type Evidence =
  | { kind: "exact"; score: 1; matched: string }
  | {
      kind: "fuzzy";
      score: number;
      trigram: number;
      acronym: boolean;
      neighbours: number;
      type: number;
    };

/**
 * The score weights of the fuzzy evidence (forge.md §7): names, shared typed neighbours, type
 * agreement.
 */
export const FUZZY_WEIGHTS = { trigram: 0.5, neighbours: 0.3, type: 0.2 } as const;

/**
 * CONCEPT is the extractors' catch-all type, so it agrees (half) with any other; other types must
 * be equal.
 */
export function typeAgreement(a: string, b: string): number {
  if (a === b) return 1;
  return a === "CONCEPT" || b === "CONCEPT" ? 0.5 : 0;
}

const words = (name: string) => name.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** pg_trgm's trigrams: each word padded with two spaces before and one after. */
export function trigrams(name: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(name)) {
    const padded = `  ${w} `;
    for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  }
  return out;
}

export function jaccard<T>(a: Set<T>, b: Set<T>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * "new york city" → "nyc"; null for one-word names (they are the short side of an acronym, not the
 * long one).
 */
export function acronymOf(name: string): string | null {
  const parts = words(name).filter((w) => !/^\p{N}+$/u.test(w));
  return parts.length >= 2 ? parts.map((w) => w[0]).join("") : null;
}

/**
 * Whether one name is the acronym of the other ("nyc" / "new york city"; "n.y.c." counts as "nyc").
 */
export function isAcronymPair(a: string, b: string): boolean {
  const compact = (s: string) => (/^[\p{L}.]+$/u.test(s) ? s.replaceAll(".", "") : null);
  const short = (s: string) => {
    const c = compact(s);
    return c !== null && c.length >= 2 && c.length <= 8 ? c : null;
  };
  const sa = short(a);
  const sb = short(b);
  return (sa !== null && acronymOf(b) === sa) || (sb !== null && acronymOf(a) === sb);
}

const digitRuns = (name: string) => (name.match(/\p{N}+/gu) ?? []).join(".");

/**
 * "Python 2" / "Python 3", "iPhone 14" / "iPhone", "v1.2" / "v1.3": names whose numbers differ name
 * different things (versions, models), however similar the rest. Never merged on name evidence.
 */
export const differOnlyInNumbers = (a: string, b: string): boolean => digitRuns(a) !== digitRuns(b);

const namesOf = (m: MatchCandidate) => [m.normalized_name, ...m.aliases];

/** The evidence that `a` and `b` are one entity, or null when they must not merge on names. */
export function nameEvidence(a: MatchCandidate, b: MatchCandidate): Evidence | null {
  const type = typeAgreement(a.memo_type, b.memo_type);
  if (type === 0) return null;
  const bNames = new Set(namesOf(b));
  const shared = namesOf(a).find((n) => bNames.has(n));
  if (shared !== undefined) {
    return differOnlyInNumbers(a.normalized_name, b.normalized_name) &&
      !a.aliases.includes(b.normalized_name) &&
      !b.aliases.includes(a.normalized_name)
      ? null
      : { kind: "exact", score: 1, matched: shared };
  }
  if (differOnlyInNumbers(a.normalized_name, b.normalized_name)) return null;
  const acronym = isAcronymPair(a.normalized_name, b.normalized_name);
  const trigram = acronym ? 1 : jaccard(trigrams(a.normalized_name), trigrams(b.normalized_name));
  const neighbours = jaccard(a.neighbours, b.neighbours);
  const score =
    FUZZY_WEIGHTS.trigram * trigram +
    FUZZY_WEIGHTS.neighbours * neighbours +
    FUZZY_WEIGHTS.type * type;
  return {
    kind: "fuzzy",
    score: Math.round(score * 1e4) / 1e4,
    trigram: Math.round(trigram * 1e4) / 1e4,
    acronym,
    neighbours: Math.round(neighbours * 1e4) / 1e4,
    type,
  };
}

/**
 * Blocking keys: only memos sharing one are ever compared. Exact names and aliases, the acronym a
 * multi-word name would have (and a one-word name as a possible acronym), and each word of 3+
 * letters.
 */
export function blockingKeys(m: MatchCandidate): Array<{ key: string; exact: boolean }> {
  const keys = new Map<string, boolean>();
  for (const n of namesOf(m)) {
    keys.set(`n:${n}`, true);
    const acr = acronymOf(n);
    if (acr) keys.set(`a:${acr}`, false);
    const compact = /^[\p{L}.]+$/u.test(n) ? n.replaceAll(".", "") : null;
    if (compact && compact.length >= 2 && compact.length <= 8) keys.set(`a:${compact}`, false);
    for (const w of words(n)) if (w.length >= 3 && !keys.has(`w:${w}`)) keys.set(`w:${w}`, false);
  }
  return [...keys].map(([key, exact]) => ({ key, exact }));
}

/**
 * Union-find over memo ids; the representative is irrelevant (the caller picks the canonical memo).
 */
export class UnionFind {
  private parent = new Map<string, string>();

  find(x: string): string {
    let root = x;
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root)!;
    let node = x;
    while (node !== root) {
      const next = this.parent.get(node) ?? root;
      this.parent.set(node, root);
      node = next;
    }
    return root;
  }

  union(a: string, b: string): boolean {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return false;
    if (ra < rb) this.parent.set(rb, ra);
    else this.parent.set(ra, rb);
    return true;
  }

  groups(ids: Iterable<string>): string[][] {
    const out = new Map<string, string[]>();
    for (const id of ids) {
      const r = this.find(id);
      const g = out.get(r);
      if (g) g.push(id);
      else out.set(r, [id]);
    }
    return [...out.values()].filter((g) => g.length > 1);
  }
}
