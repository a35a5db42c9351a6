// One memory through the local pipeline: sentences → units → clauses → candidate triples →
// relations between registered entities; proper names and masked artefacts with no relation still
// become entities (a memory that mentions ops/deploy.sh is linked to it). Pure and deterministic.
import type { ExtractedRelation, ExtractInput, MemoryExtraction } from "../types";
import { parseClauses } from "./clauses";
import { MemoryMentions } from "./mentions";
import { candidates } from "./patterns";
import { analyse } from "./sentences";
import { buildRelations } from "./triples";
import { toUnits, type NounPhrase } from "./units";

/** Bounds one memory's work: longer content is cut (at a sentence boundary when one is near). */
export const MAX_ANALYSED_CHARS = 20_000;

function relationKey(r: ExtractedRelation): string {
  return `${r.subject}|${r.relation}|${r.object}|${r.negated ? 1 : 0}`;
}

export function extractMemory(input: ExtractInput, extractor: string): MemoryExtraction {
  const content =
    input.content.length > MAX_ANALYSED_CHARS
      ? input.content.slice(0, MAX_ANALYSED_CHARS)
      : input.content;
  const mentions = new MemoryMentions(content);
  const relations = new Map<string, ExtractedRelation>();
  const loose: NounPhrase[] = [];
  for (const sentence of analyse(content, input.referenceTime)) {
    const units = toUnits(sentence);
    const structure = parseClauses(units);
    for (const candidate of candidates(structure)) {
      for (const built of buildRelations(
        candidate,
        mentions,
        content,
        sentence.times,
        input.referenceTime,
      )) {
        const relation = built.relation;
        relation.subject = mentions.register(built.subject.mention, built.subject.type, true);
        relation.object = mentions.register(built.object.mention, built.object.type, false);
        const key = relationKey(relation);
        const seen = relations.get(key);
        if (!seen || seen.confidence < relation.confidence) relations.set(key, relation);
      }
    }
    for (const unit of units) if (unit.kind === "np" && !unit.pronoun) loose.push(unit);
  }
  for (const np of loose) {
    for (const mention of mentions.resolve(np)) {
      if (!mention.proper) continue;
      mentions.register(
        mention,
        mention.type ?? mentions.typeOfName(mention.name) ?? "CONCEPT",
        false,
      );
    }
  }
  return {
    memoryId: input.memoryId,
    version: input.version,
    extractor,
    entities: mentions.list(),
    relations: [...relations.values()],
  };
}
