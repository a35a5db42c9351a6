// Ingest loader benchmark (on demand, not part of `bun test`):
// `node_modules/.bin/bun run bench/ingest.ts [--mb=50]`.
// Loader throughput on generated files read from disk, without storage or embedding (those are the
// store benchmark's numbers): text MB/s, Markdown MB/s, CSV rows/s, PDF pages/s, DOCX MB/s,
// TypeScript MB/s; and the peak resident memory while the streaming loaders (text, CSV) read a --mb
// sized file, sampled every 10 ms, against the RSS before, to show that streaming keeps memory
// flat.
import { rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Loader, LoaderContext } from "../src/domain/ingest/formats/loader";
import { codeLoader } from "../src/domain/ingest/formats/loaders/code";
import { csvLoader } from "../src/domain/ingest/formats/loaders/csv";
import { docxLoader } from "../src/domain/ingest/formats/loaders/docx";
import { markdownLoader } from "../src/domain/ingest/formats/loaders/markdown";
import { pdfLoader } from "../src/domain/ingest/formats/loaders/pdf";
import { textLoader } from "../src/domain/ingest/formats/loaders/text";
import { fileSource } from "../src/domain/ingest/formats/sources";
import { buildDocx, buildPdf } from "../test/http/ingest/documents";
import { filler } from "../test/http/ingest/fixtures";

const args = new Map(
  process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=") as [string, string]),
);
const bigMb = Number(args.get("mb") ?? 50);
const dir = path.join(os.tmpdir(), `svc-bench-ingest-${process.pid}`);
const ctx: LoaderContext = {
  orgId: "org_bench",
  chunkChars: 1200,
  overlapChars: 150,
  maxChunkChars: 8000,
  codeChunkChars: 4000,
  csvRowsPerChunk: 25,
  maxPdfPages: 100_000,
  maxDocxUncompressedBytes: 1 << 30,
  warn: () => {},
};

function write(name: string, content: string | Uint8Array): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

async function run(
  loader: Loader,
  file: string,
  name: string,
): Promise<{ seconds: number; chunks: number; peakRssMb: number; baseRssMb: number }> {
  Bun.gc(true);
  const baseRss = process.memoryUsage.rss();
  let peak = baseRss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const started = performance.now();
  let chunks = 0;
  for await (const _ of loader.load(fileSource(file, Bun.file(file).size, name, null), ctx))
    chunks++;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { seconds, chunks, peakRssMb: peak / 2 ** 20, baseRssMb: baseRss / 2 ** 20 };
}

const prose = (paragraphs: number) => {
  const s = filler(paragraphs * 6, 9);
  return Array.from({ length: paragraphs }, (_, p) => s.slice(p * 6, p * 6 + 6).join(" ")).join(
    "\n\n",
  );
};

async function main() {
  rmSync(dir, { recursive: true, force: true });
  (await import("node:fs")).mkdirSync(dir, { recursive: true });
  const rows: string[][] = [];
  const mb = (file: string) => Bun.file(file).size / 2 ** 20;

  const text = write("corpus.txt", prose(20_000));
  const t = await run(textLoader, text, "corpus.txt");
  rows.push([
    "text",
    `${mb(text).toFixed(1)} MB`,
    `${(mb(text) / t.seconds).toFixed(1)} MB/s`,
    String(t.chunks),
  ]);

  const md = write(
    "guide.md",
    Array.from({ length: 2000 }, (_, i) => `## Section ${i}\n\n${prose(5)}\n`).join("\n"),
  );
  const m = await run(markdownLoader, md, "guide.md");
  rows.push([
    "markdown",
    `${mb(md).toFixed(1)} MB`,
    `${(mb(md) / m.seconds).toFixed(1)} MB/s`,
    String(m.chunks),
  ]);

  const csvRows = 200_000;
  const sentences = filler(1000, 3);
  const csv = write(
    "rows.csv",
    [
      "id,site,note",
      ...Array.from({ length: csvRows }, (_, i) => `${i},site-${i % 50},"${sentences[i % 1000]}"`),
    ].join("\n"),
  );
  const c = await run(csvLoader, csv, "rows.csv");
  rows.push([
    "csv",
    `${csvRows} rows`,
    `${Math.round(csvRows / c.seconds)} rows/s`,
    String(c.chunks),
  ]);

  const pages = 300;
  const pdf = write(
    "report.pdf",
    buildPdf(
      Array.from({ length: pages }, (_, p) => [
        prose(3)
          .replace(/\n\n/g, " ")
          .slice(0, 2500 + p),
      ]),
    ),
  );
  const p = await run(pdfLoader, pdf, "report.pdf");
  rows.push([
    "pdf",
    `${pages} pages`,
    `${(pages / p.seconds).toFixed(0)} pages/s`,
    String(p.chunks),
  ]);

  const docx = write("notes.docx", buildDocx(prose(3000).split("\n\n")));
  const d = await run(docxLoader, docx, "notes.docx");
  rows.push([
    "docx",
    `${mb(docx).toFixed(1)} MB`,
    `${(mb(docx) / d.seconds).toFixed(1)} MB/s`,
    String(d.chunks),
  ]);

  const ts = write(
    "big.ts",
    Array.from(
      { length: 5000 },
      (_, i) =>
        `/** Doc ${i}. */\nexport function fn${i}(a: number, b: string): string {\n  return b.repeat(a + ${i});\n}\n`,
    ).join("\n"),
  );
  const k = await run(codeLoader, ts, "big.ts");
  rows.push([
    "code (ts)",
    `${mb(ts).toFixed(1)} MB`,
    `${(mb(ts) / k.seconds).toFixed(1)} MB/s`,
    String(k.chunks),
  ]);

  console.log("| loader | input | throughput | chunks |\n|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);

  // Streaming: a --mb file through the text and CSV loaders; memory must not grow with the file.
  const bigText = path.join(dir, "big.txt");
  const block = prose(200) + "\n\n";
  const writer = Bun.file(bigText).writer();
  for (let written = 0; written < bigMb * 2 ** 20; written += block.length) writer.write(block);
  await writer.end();
  const bigCsv = path.join(dir, "big.csv");
  const csvWriter = Bun.file(bigCsv).writer();
  csvWriter.write("id,site,note\n");
  for (let i = 0, written = 0; written < bigMb * 2 ** 20; i++) {
    const line = `${i},site-${i % 50},"${sentences[i % 1000]}"\n`;
    csvWriter.write(line);
    written += line.length;
  }
  await csvWriter.end();
  console.log(
    `\n| streaming loader | file | throughput | RSS before | peak RSS |\n|---|---|---|---|---|`,
  );
  for (const [loader, file] of [
    [textLoader, bigText],
    [csvLoader, bigCsv],
  ] as const) {
    const r = await run(loader, file, path.basename(file));
    console.log(
      `| ${loader.id} | ${mb(file).toFixed(0)} MB | ${(mb(file) / r.seconds).toFixed(1)} MB/s | ${r.baseRssMb.toFixed(0)} MB | ${r.peakRssMb.toFixed(0)} MB |`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
}

await main();
