// The LLM as refine sees it: only a configured provider (never the local extractive stand-in, whose
// "answers" are not judgements), at most REFINE_LLM_MAX_CALLS calls a run, each metered and checked
// against the tenant's budget by the port's metering wrapper. A spent budget or an outage is not an
// error for refine: the step that wanted the call degrades and says so in the pass notes.
import type { LlmProvider, LlmRequest } from "../../../providers/llm/port";
import { LlmUnavailableError } from "../../../providers/llm/port";
import { AppError } from "../../../lib/errors";

export type LlmOutcome =
  | { text: string }
  | { skipped: "not-configured" | "call-cap" | "budget" | "unavailable"; detail: string };

export type RefineLlm = {
  readonly configured: boolean;
  readonly calls: number;
  complete(request: LlmRequest): Promise<LlmOutcome>;
};

export function refineLlm(llm: LlmProvider, orgId: string, maxCalls: number): RefineLlm {
  let calls = 0;
  let budgetSpent: string | null = null;
  const configured = llm.name !== "local";
  return {
    configured,
    get calls() {
      return calls;
    },
    async complete(request) {
      if (!configured)
        return { skipped: "not-configured", detail: "no LLM provider is configured" };
      if (budgetSpent) return { skipped: "budget", detail: budgetSpent };
      if (calls >= maxCalls)
        return { skipped: "call-cap", detail: `REFINE_LLM_MAX_CALLS (${maxCalls}) reached` };
      calls++;
      try {
        return { text: (await llm.complete(request, { orgId })).text };
      } catch (error) {
        if (error instanceof AppError && error.slug === "budget-exceeded") {
          budgetSpent = error.detail;
          return { skipped: "budget", detail: error.detail };
        }
        if (error instanceof LlmUnavailableError)
          return { skipped: "unavailable", detail: error.message };
        throw error;
      }
    },
  };
}

/**
 * Parses a JSON object answer, tolerating code fences and <think> blocks small models add; null if
 * it is not one.
 */
export function parseJsonAnswer(text: string): Record<string, unknown> | null {
  const cleaned = text
    .replace(/<think>[\s\S]*?<\/think>/g, "")
    .replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, "")
    .trim();
  try {
    const value = JSON.parse(cleaned);
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
