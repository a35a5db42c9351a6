// RETRIEVAL_REDACTION_ENABLED over a recall's `graph` section: fact texts, memo names, answers,
// citation evidence and table cells are memory content in other words, so they are masked the same
// way.
import type { GraphEvidence, GraphFact } from "../../data/graph-evidence";
import { redactJson, redactText, type Redacted } from "./redaction";

export function redactGraphEvidence(evidence: GraphEvidence): Redacted<GraphEvidence> {
  let count = 0;
  const text = (s: string) => {
    const r = redactText(s);
    count += r.count;
    return r.value;
  };
  const fact = (f: GraphFact): GraphFact => ({
    ...f,
    fact: text(f.fact),
    subject: { ...f.subject, name: text(f.subject.name) },
    object: { ...f.object, name: text(f.object.name) },
  });
  const value: GraphEvidence = {
    ...evidence,
    ...(evidence.facts ? { facts: evidence.facts.map(fact) } : {}),
    ...(evidence.answer
      ? {
          answer: {
            ...evidence.answer,
            text: text(evidence.answer.text),
            citations: evidence.answer.citations.map((c) => ({ ...c, evidence: text(c.evidence) })),
            ...(evidence.answer.dropped_claims
              ? {
                  dropped_claims: evidence.answer.dropped_claims.map((d) => ({
                    ...d,
                    text: text(d.text),
                  })),
                }
              : {}),
          },
        }
      : {}),
  };
  if (evidence.table) {
    const rows = redactJson(evidence.table.rows);
    count += rows.count;
    value.table = { ...evidence.table, rows: rows.value };
  }
  return { value, count };
}
