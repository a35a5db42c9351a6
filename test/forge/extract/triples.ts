// Test helpers: an extraction rendered as comparable strings ("Alice -LIVES_IN-> Berlin", "!" when
// negated, "@2023-03-01" for valid_at, "~2026-11-23" for invalid_at) and entities as "name:TYPE".
import type { MemoryExtraction } from "../../../src/domain/forge/extract/types";

const day = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 10) : "");

export function triplesOf(result: MemoryExtraction, options: { dates?: boolean } = {}): string[] {
  const byRef = new Map(result.entities.map((e) => [e.ref, e]));
  return result.relations
    .map((r) => {
      const base = `${byRef.get(r.subject)!.name} -${r.negated ? "!" : ""}${r.relation}-> ${byRef.get(r.object)!.name}`;
      if (!options.dates) return base;
      return `${base}${r.validAt ? ` @${day(r.validAt)}` : ""}${r.invalidAt ? ` ~${day(r.invalidAt)}` : ""}`;
    })
    .sort();
}

export function entitiesOf(result: MemoryExtraction): string[] {
  return result.entities.map((e) => `${e.name}:${e.type}`).sort();
}
