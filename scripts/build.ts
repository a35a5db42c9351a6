// `bun run build`: compiles the whole service (migrations, PGlite wasm and extensions, docs assets)
// into one executable, ./svc, that runs without node_modules.
import { statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dir, "..");
const outfile = path.resolve(root, process.argv[2] ?? "svc");
const started = performance.now();
const build = Bun.spawnSync(
  [
    process.execPath,
    "build",
    "--compile",
    "--minify",
    "--sourcemap=none",
    // --bytecode needs ESM output here: the CJS default breaks top-level await in src/main.ts.
    "--bytecode",
    "--format=esm",
    // svc mcp's worker thread is an entry point of its own (new Worker() finds it in the binary).
    path.join(root, "src/main.ts"),
    path.join(root, "src/cli/mcp-worker.ts"),
    "--outfile",
    outfile,
  ],
  { cwd: root, stdout: "inherit", stderr: "inherit" },
);
if (build.exitCode !== 0) process.exit(build.exitCode ?? 1);
const megabytes = statSync(outfile).size / 1024 / 1024;
console.log(
  `built ${path.relative(process.cwd(), outfile) || outfile}: ${megabytes.toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
