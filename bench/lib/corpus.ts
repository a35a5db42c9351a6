// Seeded synthetic memories and queries shared by every benchmark, so ours, the peer and the exact
// scan see the same text.
const SUBJECTS = [
  "the deploy pipeline",
  "user Alice",
  "the billing service",
  "our Postgres cluster",
  "the mobile app",
  "customer Acme",
  "the search index",
  "the staging cluster",
  "Bob from support",
  "the nightly export",
  "the auth gateway",
  "the data warehouse",
  "the cache layer",
  "project Falcon",
  "the onboarding flow",
  "the payments API",
];
const VERBS = [
  "prefers",
  "failed on",
  "was migrated to",
  "depends on",
  "reported an issue with",
  "switched to",
  "needs a review of",
  "is blocked by",
  "scheduled a change to",
  "asked about",
  "rolled back",
  "monitors",
];
const OBJECTS = [
  "dark mode",
  "TLS certificates",
  "the Friday release",
  "Kubernetes 1.30",
  "weekly invoices",
  "a Redis timeout",
  "the EU region",
  "pgvector indexes",
  "SSO with Okta",
  "rate limits",
  "the retry policy",
  "CSV exports",
  "webhook signatures",
  "the audit trail",
  "feature flags",
  "cold starts",
  "a memory leak",
  "the schema migration",
  "GPU quotas",
  "log retention",
];
const DETAILS = [
  "since March",
  "after the outage",
  "for the Q3 launch",
  "on every weekday",
  "until further notice",
  "per the last retro",
  "according to the runbook",
  "when traffic peaks",
  "in the Berlin office",
  "as agreed with legal",
];

/** mulberry32: small, fast, seedable; the same seed gives the same corpus on every machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, list: readonly T[]): T =>
  list[Math.floor(random() * list.length)]!;

export function corpus(size: number, seed = 42): string[] {
  const random = rng(seed);
  const out: string[] = new Array(size);
  for (let i = 0; i < size; i++) {
    out[i] =
      `${pick(random, SUBJECTS)} ${pick(random, VERBS)} ${pick(random, OBJECTS)} ${pick(random, DETAILS)} (note ${i.toString(36)}, ticket ${Math.floor(random() * 90000) + 10000})`;
  }
  return out;
}

export function queries(count: number, seed = 7): string[] {
  const random = rng(seed);
  return Array.from(
    { length: count },
    () => `what ${pick(random, VERBS)} ${pick(random, OBJECTS)} ${pick(random, DETAILS)}`,
  );
}
