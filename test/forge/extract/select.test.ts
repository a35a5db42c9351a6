// Extractor selection: local by default, the LLM extractor when an LLM provider is configured.
import { expect, test } from "bun:test";
import { loadConfig } from "../../../src/config/load";
import { LOCAL_EXTRACTOR_NAME } from "../../../src/domain/forge/extract/local";
import { selectExtractor } from "../../../src/domain/forge/extract/select";
import { selectLlm } from "../../../src/providers/llm/select";

const pick = (env: Record<string, unknown>) => {
  const config = loadConfig({}, env);
  return selectExtractor(config, selectLlm(config)).name;
};

test("local without an LLM, llm:<model> with one, EXTRACTOR pins either way", () => {
  expect(pick({})).toBe(LOCAL_EXTRACTOR_NAME);
  expect(pick({ LLM_API_KEY: "sk", LLM_MODEL: "m-9" })).toBe("llm:m-9");
  expect(pick({ LLM_API_KEY: "sk", EXTRACTOR: "local" })).toBe(LOCAL_EXTRACTOR_NAME);
  expect(() => pick({ EXTRACTOR: "llm" })).toThrow(/LLM_API_KEY/);
});
