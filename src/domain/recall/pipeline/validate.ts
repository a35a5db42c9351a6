// Stage 1: the checks of a recall request that its schema cannot express; problems name the field.
import { validationFailed, type FieldProblem } from "../../../lib/errors";
import type { RecallDeps, RecallInput } from "./types";

export function validateRecall(deps: RecallDeps, input: RecallInput): void {
  const problems: FieldProblem[] = [];
  if (input.query.trim() === "")
    problems.push({ path: "/query", message: "must contain a non-blank character" });
  const f = input.filters;
  if (f?.createdAfter && f.createdBefore && f.createdAfter >= f.createdBefore) {
    problems.push({ path: "/filters/created_before", message: "must be after created_after" });
  }
  if (f?.occurredAfter && f.occurredBefore && f.occurredAfter >= f.occurredBefore) {
    problems.push({ path: "/filters/occurred_before", message: "must be after occurred_after" });
  }
  if (input.rerank && deps.llm.name === "local") {
    problems.push({
      path: "/rerank",
      message: "needs an LLM: set LLM_API_KEY (docs/recall.md, Rerank)",
    });
  }
  if (problems.length > 0) throw validationFailed(problems);
}
