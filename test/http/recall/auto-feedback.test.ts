// AUTO's pseudo-relevance feedback on PostgreSQL (cases in auto-feedback-cases.ts; PGlite:
// test/embedded/auto-feedback-embedded.test.ts).
import { afterAll, beforeAll, test } from "bun:test";
import { testApp, type Tenant, type TestApp } from "../../harness/app";
import * as cases from "./auto-feedback-cases";

let t: TestApp;
let tenant: Tenant;

beforeAll(async () => {
  t = await testApp();
  tenant = await t.tenant("auto-feedback");
});
afterAll(() => t.close());

test("AUTO: the answer that shares only the match's rare words is found through feedback", () =>
  cases.feedbackFindsTheAnswer(t, tenant));
test("AUTO: pinned LEXICAL stays plain BM25, without feedback", () =>
  cases.pinnedLexicalHasNoFeedback(t, tenant));
test("AUTO: a quoted query gets no feedback", () => cases.quotedQueryHasNoFeedback(t, tenant));
test("AUTO: the feedback pass keeps the request's filter", () =>
  cases.feedbackKeepsTheFilter(t, tenant));
