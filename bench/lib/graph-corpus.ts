// A seeded relational world for the graph benchmarks: people (first × synthetic last names, all
// distinct), organisations, cities and tools. Person i works at an organisation (every other person
// at the hub "Acme"), lives in a city, knows two people and uses a tool; every organisation sits in
// a city.
import { rng } from "./corpus";

const FIRST = [
  "Ada",
  "Bruno",
  "Chen",
  "Dana",
  "Emeka",
  "Farah",
  "Goran",
  "Hana",
  "Ivan",
  "Julia",
  "Kofi",
  "Lena",
  "Mateo",
  "Nadia",
  "Omar",
  "Priya",
  "Quinn",
  "Rosa",
  "Sven",
  "Tariq",
  "Uma",
  "Viktor",
  "Wanda",
  "Ximena",
  "Yusuf",
  "Zara",
  "Anton",
  "Bea",
  "Carlos",
  "Dmitri",
  "Elif",
  "Femi",
  "Greta",
  "Hiro",
  "Ines",
  "Jonas",
  "Kira",
  "Luca",
  "Mira",
  "Nils",
];
const SYLLABLES = [
  "ka",
  "lo",
  "mer",
  "tin",
  "ro",
  "van",
  "del",
  "sa",
  "ber",
  "gu",
  "nak",
  "pol",
  "ris",
  "ten",
  "dor",
  "vi",
];
export const HUB = "Acme";

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const surname = (i: number) =>
  cap(
    SYLLABLES[i % 16]! + SYLLABLES[Math.floor(i / 16) % 16]! + SYLLABLES[Math.floor(i / 256) % 16]!,
  );

export type GraphWorld = {
  people: string[];
  orgs: string[];
  cities: string[];
  tools: string[];
  person: Array<{ org: number; city: number; knows: [number, number]; tool: number }>;
  orgCity: number[];
};

export function graphWorld(people: number, seed = 11): GraphWorld {
  const random = rng(seed);
  const n = (k: number) => Math.floor(random() * k);
  const names = Array.from(
    { length: people },
    (_, i) => `${FIRST[i % FIRST.length]} ${surname(Math.floor(i / FIRST.length) * 7 + 3)}`,
  );
  const orgs = [HUB, ...Array.from({ length: 499 }, (_, i) => `${surname(i * 11 + 5)} Labs`)];
  const cities = Array.from({ length: 200 }, (_, i) => `${surname(i * 13 + 1)}burg`);
  const tools = Array.from({ length: 100 }, (_, i) => `${surname(i * 17 + 2)}DB`);
  return {
    people: names,
    orgs,
    cities,
    tools,
    person: names.map((_, i) => ({
      org: i % 2 === 0 ? 0 : 1 + n(orgs.length - 1),
      city: n(cities.length),
      knows: [(i + 1 + n(people - 1)) % people, (i + 1 + n(people - 1)) % people],
      tool: n(tools.length),
    })),
    orgCity: orgs.map(() => n(cities.length)),
  };
}

/**
 * The memory that grounds person i's facts (one sentence per fact, so the local extractor reads
 * them).
 */
export function personMemory(w: GraphWorld, i: number): string {
  const p = w.person[i]!;
  const name = w.people[i]!;
  return `${name} works at ${w.orgs[p.org]}. ${name} lives in ${w.cities[p.city]}. ${name} knows ${w.people[p.knows[0]]}. ${name} uses ${w.tools[p.tool]}.`;
}
