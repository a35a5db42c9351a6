// docs/configuration.md is generated from the config schema; this fails when a variable is added
// without regenerating it (`bun run scripts/config-docs.ts > docs/configuration.md`).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { configurationMarkdown } from "../../scripts/config-docs";

test("docs/configuration.md matches the config schema", () => {
  expect(readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8")).toBe(
    configurationMarkdown(),
  );
});
