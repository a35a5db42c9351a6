// PGlite's WebAssembly, filesystem bundle and extensions (pgvector, pg_trgm) as embedded files, so
// `bun build --compile` carries them (PGlite's own `new URL(..., import.meta.url)` lookups are not
// embedded). Deep imports are blocked by the packages' "exports" maps, hence the relative
// node_modules paths.
import { renameSync } from "node:fs";
import os from "node:os";
import initdbWasmPath from "../../node_modules/@electric-sql/pglite/dist/initdb.wasm" with {
  type: "file",
};
import pgliteDataPath from "../../node_modules/@electric-sql/pglite/dist/pglite.data" with {
  type: "file",
};
import pgliteWasmPath from "../../node_modules/@electric-sql/pglite/dist/pglite.wasm" with {
  type: "file",
};
import pgTrgmTarPath from "../../node_modules/@electric-sql/pglite/dist/pg_trgm.tar.gz" with {
  type: "file",
};
import vectorTarPath from "../../node_modules/@electric-sql/pglite-pgvector/dist/vector.tar.gz" with {
  type: "file",
};

export type PgliteAssets = {
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
  fsBundle: Blob;
  /** On-disk copies of the extension bundles, by extension name. */
  extensionBundles: Record<"vector" | "pg_trgm", URL>;
};

// PGlite reads extension bundles with fs.createReadStream, which cannot open the binary's /$bunfs
// paths (oven-sh/bun#22223), so each bundle is copied once to a temp file keyed by name and size.
async function onDisk(name: string, embeddedPath: string): Promise<URL> {
  const file = Bun.file(embeddedPath);
  const target = `${os.tmpdir()}/svc-pglite-ext/${file.size}-${name}.tar.gz`;
  if (!(await Bun.file(target).exists())) {
    const partial = `${target}.${process.pid}.partial`;
    await Bun.write(partial, file);
    renameSync(partial, target);
  }
  return new URL(`file://${target}`);
}

export async function loadPgliteAssets(): Promise<PgliteAssets> {
  const [pgliteWasmModule, initdbWasmModule] = await Promise.all([
    WebAssembly.compile(await Bun.file(pgliteWasmPath).arrayBuffer()),
    WebAssembly.compile(await Bun.file(initdbWasmPath).arrayBuffer()),
  ]);
  const [vector, pgTrgm] = await Promise.all([
    onDisk("vector", vectorTarPath),
    onDisk("pg_trgm", pgTrgmTarPath),
  ]);
  return {
    pgliteWasmModule,
    initdbWasmModule,
    fsBundle: Bun.file(pgliteDataPath),
    extensionBundles: { vector, pg_trgm: pgTrgm },
  };
}
