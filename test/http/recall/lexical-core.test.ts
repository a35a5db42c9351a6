// LEXICAL's BM25 on PostgreSQL: idf, the words typed, the whole agent, length, identifiers (cases
// in lexical-core-cases.ts).
import { afterAll, beforeAll, test } from "bun:test";
import { testApp, type Tenant, type TestApp } from "../../harness/app";
import {
  camelCaseIdentifierFindsTheFunction,
  oldMemoryBeyondTheNewestIsFound,
  rareWordOutranksCommonOnes,
  typedWordsOnly,
  shortDocumentOutranksLongOne,
  wordFindsItsShortFormInCode,
  wordPairFindsTheJoinedIdentifier,
} from "./lexical-core-cases";

let t: TestApp;
let tenant: Tenant;

beforeAll(async () => {
  t = await testApp();
  tenant = await t.tenant("lexical-core");
});
afterAll(() => t.close());

test("BM25: a rare word outranks common ones (idf)", () => rareWordOutranksCommonOnes(t, tenant));
test("BM25: the words typed, no WordNet relatives", () => typedWordsOnly(t, tenant));
test(
  "BM25: a memory older than the newest 5,000 is found",
  () => oldMemoryBeyondTheNewestIsFound(t, tenant),
  300_000,
);
test("BM25: a short memory outranks a long one with the same term count", () =>
  shortDocumentOutranksLongOne(t, tenant));
test("BM25: a camelCase query finds the snake_case function, and back", () =>
  camelCaseIdentifierFindsTheFunction(t, tenant));
test("BM25: a word finds code's short form of it (dictionaries → dict)", () =>
  wordFindsItsShortFormInCode(t, tenant));
test("BM25: two words of the query find the identifier that joins them", () =>
  wordPairFindsTheJoinedIdentifier(t, tenant));
