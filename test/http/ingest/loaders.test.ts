// The loaders on their own, for what the HTTP tests do not reach: Python and large-class splitting
// in the code loader, oversized declarations, Markdown front matter and fenced code, CSV quoting
// and TSV, the zip-bomb guard, and format detection from the bytes.
import { describe, expect, test } from "bun:test";
import type { Chunk, LoaderContext } from "../../../src/domain/ingest/formats/loader";
import { codeLoader } from "../../../src/domain/ingest/formats/loaders/code";
import { csvLoader } from "../../../src/domain/ingest/formats/loaders/csv";
import { docxLoader } from "../../../src/domain/ingest/formats/loaders/docx";
import { markdownLoader } from "../../../src/domain/ingest/formats/loaders/markdown";
import { detectLoader } from "../../../src/domain/ingest/formats/registry";
import { bytesSource } from "../../../src/domain/ingest/formats/sources";
import { buildDocx, buildPdf, buildZip } from "./documents";

const warnings: string[] = [];
const ctx = (over: Partial<LoaderContext> = {}): LoaderContext => ({
  orgId: "org_test",
  chunkChars: 400,
  overlapChars: 60,
  maxChunkChars: 2000,
  codeChunkChars: 600,
  csvRowsPerChunk: 10,
  maxPdfPages: 10,
  maxDocxUncompressedBytes: 1_000_000,
  warn: (m) => void warnings.push(m),
  ...over,
});
const enc = (s: string) => new TextEncoder().encode(s);

async function load(
  loader: typeof codeLoader,
  text: string | Uint8Array,
  filename: string,
  c = ctx(),
): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for await (const chunk of loader.load(
    bytesSource(typeof text === "string" ? enc(text) : text, filename, null),
    c,
  ))
    chunks.push(chunk);
  return chunks;
}

describe("code loader", () => {
  test("Python: decorated functions and classes are chunks named by their symbol, with line ranges", async () => {
    const src =
      'import os\n\n\n@cached\ndef load_config(path):\n    """Reads the file."""\n    return open(path).read()\n\n\nclass Ledger:\n    def balance(self):\n        return 0\n';
    const chunks = await load(codeLoader, src, "ledger.py");
    expect(chunks.map((c) => c.metadata?.symbol ?? null)).toEqual([null, "load_config", "Ledger"]);
    expect(chunks[1]!.text).toStartWith("@cached\ndef load_config(path):");
    expect(chunks[1]!.metadata).toMatchObject({
      kind: "code",
      language: "python",
      path: "ledger.py",
      start_line: 4,
      end_line: 7,
    });
    for (const c of chunks)
      expect(src.slice(c.position.char_start, c.position.char_end)).toBe(c.text);
  });

  test("a class larger than the code chunk size is split into members; a long method stays whole", async () => {
    const longBody = Array.from({ length: 40 }, (_, i) => `    total += ${i};`).join("\n");
    const methods = Array.from(
      { length: 8 },
      (_, i) => `  method${i}(x: number): number {\n    return x * ${i};\n  }`,
    ).join("\n\n");
    const src = `export class Warehouse {\n  private stock = 0;\n\n${methods}\n\n  tally(): number {\n    let total = 0;\n${longBody}\n    return total;\n  }\n}\n`;
    const chunks = await load(codeLoader, src, "warehouse.ts");
    const symbols = chunks.map((c) => c.metadata?.symbol);
    expect(symbols).toContain("Warehouse");
    expect(symbols).toContain("Warehouse.method3");
    const tally = chunks.find((c) => c.metadata?.symbol === "Warehouse.tally")!;
    expect(tally.text.length).toBeGreaterThan(600);
    expect(tally.text).toStartWith("tally(): number {");
    expect(tally.text).toEndWith("return total;\n  }");
  });

  test("a declaration longer than the memory limit is cut between lines, with a warning", async () => {
    const body = Array.from({ length: 200 }, (_, i) => `  const value${i} = ${i};`).join("\n");
    const src = `function huge() {\n${body}\n}\n`;
    warnings.length = 0;
    const chunks = await load(codeLoader, src, "huge.js", ctx({ maxChunkChars: 1000 }));
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(1000);
      expect(src.slice(c.position.char_start, c.position.char_end)).toBe(c.text);
      expect(src[c.position.char_start! - 1] ?? "\n").toBe("\n");
    }
    expect(warnings.join(" ")).toContain("huge is longer than the memory size limit");
  });
});

describe("markdown loader", () => {
  test("front matter is skipped, a # inside fenced code is not a heading, offsets are exact", async () => {
    const src =
      "---\ntitle: T\n---\n# Intro\n\nHello there.\n\n```sh\n# not a heading\n```\n\n## Usage\n\nRun it.\n";
    const chunks = await load(markdownLoader, src, "readme.md");
    expect(chunks.map((c) => c.position.heading_path)).toEqual([["Intro"], ["Intro", "Usage"]]);
    expect(chunks[0]!.text).toContain("# not a heading");
    for (const c of chunks)
      expect(src.slice(c.position.char_start, c.position.char_end)).toBe(c.text);
    expect(chunks.some((c) => c.text.includes("title: T"))).toBe(false);
  });
});

describe("csv loader", () => {
  test("quoted fields with commas and newlines survive; TSV is read by its extension; the header repeats", async () => {
    const rows = [
      "name\tnote",
      ...Array.from({ length: 25 }, (_, i) => `n${i}\tline with, comma ${i}`),
    ];
    const chunks = await load(csvLoader, rows.join("\n"), "notes.tsv");
    expect(chunks.map((c) => [c.position.row_start, c.position.row_end])).toEqual([
      [1, 10],
      [11, 20],
      [21, 25],
    ]);
    for (const c of chunks) expect(c.text.split("\n")[0]).toBe("name,note");
    expect(chunks[0]!.text).toContain('n0,"line with, comma 0"');
    const quoted = await load(csvLoader, 'a,b\n1,"two\nlines"\n', "q.csv");
    expect(quoted[0]!.text).toBe('a,b\n1,"two\nlines"');
  });
});

describe("csv streaming", () => {
  test("rows split across stream pieces (quoted newlines, semicolons, UTF-8) come out whole", async () => {
    const text = 'name;note\n"Ørsted";"two\nlines; one ""quote"""\nplain;row\n';
    const bytes = enc(text);
    const source = {
      ...bytesSource(bytes, "s.csv", "text/csv"),
      stream: () =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
            controller.close();
          },
        }),
    };
    const chunks: Chunk[] = [];
    for await (const c of csvLoader.load(source, ctx())) chunks.push(c);
    expect(chunks.map((c) => c.text)).toEqual([
      'name,note\nØrsted,"two\nlines; one ""quote"""\nplain,row',
    ]);
    expect(chunks[0]!.metadata).toEqual({ columns: ["name", "note"] });
  });
});

describe("docx zip-bomb guard and detection", () => {
  test("an entry that claims to inflate past the limit fails before unpacking", async () => {
    const bomb = buildZip([["word/document.xml", "<x/>"]]);
    // Claim 2 GB uncompressed in the central directory entry.
    const view = new DataView(bomb.buffer);
    const central = bomb.findIndex((_, i) => view.getUint32(i, true) === 0x02014b50);
    view.setUint32(central + 24, 2_000_000_000, true);
    await expect(load(docxLoader, bomb, "bomb.docx")).rejects.toMatchObject({
      reason: "too-large",
    });
  });

  test("formats come from the bytes; names and declared types only choose among text formats", () => {
    expect(detectLoader(buildPdf([["x"]]), "a.docx", "application/msword")?.loader.id).toBe("pdf");
    expect(detectLoader(buildDocx(["x"]), "a.txt", "text/plain")?.loader.id).toBe("docx");
    expect(detectLoader(enc("# Title\n\ntext"), "a.md", null)?.loader.id).toBe("markdown");
    expect(detectLoader(enc("# Title\n\ntext"), null, "text/markdown")?.loader.id).toBe("markdown");
    expect(detectLoader(enc("def f():\n  pass\n"), "f.py", null)?.loader.id).toBe("code");
    expect(detectLoader(enc("a,b\n1,2\n"), "d.csv", null)?.loader.id).toBe("csv");
    expect(detectLoader(enc("just words"), "d.csv", null)?.loader.id).toBe("text");
    expect(detectLoader(new Uint8Array([0, 1, 2, 3, 255, 254]), "a.txt", "text/plain")).toBeNull();
  });
});
