// Compiles the SDK to dist/ (JavaScript and declarations) with the TypeScript of the svc checkout, then
// copies the generated openapi.d.ts, which tsc does not emit (it is already a declaration file).
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = [join(here, "node_modules/.bin/tsc"), join(here, "../node_modules/.bin/tsc")].find(
  existsSync,
);
if (!tsc)
  throw new Error(
    "no TypeScript compiler: run `npm ci` in the svc checkout (or `npm install typescript` here)",
  );
rmSync(join(here, "dist"), { recursive: true, force: true });
execFileSync(tsc, ["-p", join(here, "tsconfig.build.json")], { stdio: "inherit" });
copyFileSync(join(here, "src/openapi.d.ts"), join(here, "dist/openapi.d.ts"));
