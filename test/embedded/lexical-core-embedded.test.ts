// LEXICAL's any-word tier on PGlite (embedded mode): the same cases as test/http/recall/lexical-core.test.ts.
import { afterAll, beforeAll, test } from "bun:test";
import { embeddedApp, type EmbeddedApp } from "../harness/embedded-app";
import type { Tenant } from "../harness/app";
import { rareWordOutranksCommonOnes, relatedWordsFindParaphrases } from "../http/recall/lexical-core-cases";

let e: EmbeddedApp;
let tenant: Tenant;

beforeAll(async () => {
  e = await embeddedApp("lexical-core");
  tenant = await e.tenant("embedded-lexical-core");
}, 120_000);
afterAll(() => e.close());

test("any-word tier on PGlite: a rare word outranks common ones (idf)", () => rareWordOutranksCommonOnes(e.app, tenant));
test("any-word tier on PGlite: WordNet expansion finds paraphrases", () => relatedWordsFindParaphrases(e.app, tenant));
