// LEXICAL's BM25 on PGlite (embedded mode): the same cases as
// test/http/recall/lexical-core.test.ts.
import { afterAll, beforeAll, test } from "bun:test";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import type { Tenant } from "../harness/app";
import {
  camelCaseIdentifierFindsTheFunction,
  oldMemoryBeyondTheNewestIsFound,
  rareWordOutranksCommonOnes,
  typedWordsOnly,
  shortDocumentOutranksLongOne,
  wordFindsItsShortFormInCode,
  wordPairFindsTheJoinedIdentifier,
} from "../http/recall/lexical-core-cases";

let e: EmbeddedApp;
let tenant: Tenant;

beforeAll(async () => {
  e = await embeddedApp("lexical-core");
  tenant = await e.tenant("embedded-lexical-core");
}, 120_000);
afterAll(() => e.close());

test("BM25 on PGlite: a rare word outranks common ones (idf)", () =>
  rareWordOutranksCommonOnes(e.app, tenant));
test("BM25 on PGlite: the words typed, no WordNet relatives", () => typedWordsOnly(e.app, tenant));
test(
  "BM25 on PGlite: a memory older than the newest 5,000 is found",
  () => oldMemoryBeyondTheNewestIsFound(e.app, tenant),
  300_000,
);
test("BM25 on PGlite: a short memory outranks a long one with the same term count", () =>
  shortDocumentOutranksLongOne(e.app, tenant));
test("BM25 on PGlite: a camelCase query finds the snake_case function, and back", () =>
  camelCaseIdentifierFindsTheFunction(e.app, tenant));
test("BM25 on PGlite: a word finds code's short form of it (dictionaries → dict)", () =>
  wordFindsItsShortFormInCode(e.app, tenant));
test("BM25 on PGlite: two words of the query find the identifier that joins them", () =>
  wordPairFindsTheJoinedIdentifier(e.app, tenant));
