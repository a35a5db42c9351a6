// Prints the README's quick start (the first ```sh block under "## Quick start") so tests and
// scripts/fresh-machine-check.sh run exactly what a newcomer copy-pastes: node scripts/readme-quickstart.mjs | bash
import { readFileSync } from "node:fs";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const section = readme.split(/^## /m).find((part) => part.startsWith("Quick start"));
const block = section && /```sh\n([\s\S]*?)```/.exec(section);
if (!block) {
  console.error("README.md has no ```sh block under ## Quick start");
  process.exit(1);
}
process.stdout.write(block[1]);
