// Prints "N passed, N failed" from bun's JUnit report (CI cannot read bun's own summary).
import { existsSync, readFileSync } from "node:fs";

const file = process.argv[2] ?? "junit.xml";
if (!existsSync(file)) {
  console.log("0 passed, 1 failed");
  process.exit(0);
}
const xml = readFileSync(file, "utf8");
const root = /<testsuites\b[^>]*>/.exec(xml)?.[0] ?? "";
const attr = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(root)?.[1] ?? 0);
const tests = attr("tests");
const failed = attr("failures") + attr("errors");
const skipped = attr("skipped");
console.log(
  `${tests - failed - skipped} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`,
);
