// LEXICAL's any-word tier on PostgreSQL: idf weighting and WordNet query expansion (cases in lexical-core-cases.ts).
import { afterAll, beforeAll, test } from "bun:test";
import { testApp, type Tenant, type TestApp } from "../../harness/app";
import { rareWordOutranksCommonOnes, relatedWordsFindParaphrases } from "./lexical-core-cases";

let t: TestApp;
let tenant: Tenant;

beforeAll(async () => {
  t = await testApp();
  tenant = await t.tenant("lexical-core");
});
afterAll(() => t.close());

test("any-word tier: a rare word outranks common ones (idf)", () => rareWordOutranksCommonOnes(t, tenant));
test("any-word tier: WordNet expansion finds paraphrases, below the user's own words", () => relatedWordsFindParaphrases(t, tenant));
