// AUTO's pseudo-relevance feedback on PGlite (embedded mode): the cases of
// test/http/recall/auto-feedback.test.ts.
import { afterAll, beforeAll, test } from "bun:test";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import type { Tenant } from "../harness/app";
import * as cases from "../http/recall/auto-feedback-cases";

let e: EmbeddedApp;
let tenant: Tenant;

beforeAll(async () => {
  e = await embeddedApp("auto-feedback");
  tenant = await e.tenant("embedded-auto-feedback");
}, 120_000);
afterAll(() => e.close());

test("AUTO on PGlite: the answer that shares only the match's rare words is found through feedback", () =>
  cases.feedbackFindsTheAnswer(e.app, tenant));
test("AUTO on PGlite: pinned LEXICAL stays plain BM25, without feedback", () =>
  cases.pinnedLexicalHasNoFeedback(e.app, tenant));
test("AUTO on PGlite: a quoted query gets no feedback", () =>
  cases.quotedQueryHasNoFeedback(e.app, tenant));
test("AUTO on PGlite: the feedback pass keeps the request's filter", () =>
  cases.feedbackKeepsTheFilter(e.app, tenant));
