// CSV (and TSV): parsed by papaparse while the file streams, so memory stays flat. The first row is the
// header; each chunk holds up to INGEST_CSV_ROWS_PER_CHUNK rows (fewer if INGEST_CHUNK_CHARS is reached),
// written back as comma-separated CSV under a repetition of the header line, so every memory reads on its own.
import { Readable } from "node:stream";
import Papa from "papaparse";
import { proseLimits } from "../chunk/limits";
import { chunkProse } from "../chunk/prose";
import type { Chunk, Loader, LoaderContext, LoaderSource } from "../loader";
import { LoaderError } from "../loader";
import { extensionOf, looksLikeText } from "../sniff";

const unparse = (rows: string[][]) => Papa.unparse(rows, { newline: "\n" });

/** A first line with a comma, semicolon or tab outside quotes. */
function looksLikeDelimited(head: Uint8Array): boolean {
  const firstLine = new TextDecoder().decode(head.subarray(0, 4096)).split(/\r?\n/, 1)[0] ?? "";
  return /[,;\t]/.test(firstLine);
}

/** Rows as papaparse reads them from the stream (it guesses the delimiter unless told). */
async function* rowsOf(source: LoaderSource, delimiter: string | undefined, signal?: AbortSignal): AsyncGenerator<string[]> {
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, { delimiter, skipEmptyLines: "greedy" }) as NodeJS.ReadWriteStream;
  const input = Readable.fromWeb(source.stream() as import("node:stream/web").ReadableStream<Uint8Array>);
  input.on("error", (error) => parser.emit("error", error));
  input.pipe(parser);
  for await (const row of parser as AsyncIterable<string[]>) {
    signal?.throwIfAborted();
    yield row;
  }
}

export const csvLoader: Loader = {
  id: "csv",
  mimeTypes: ["text/csv", "text/tab-separated-values", "application/csv"],
  extensions: [".csv", ".tsv"],
  description: "CSV/TSV, streamed: the header row plus up to INGEST_CSV_ROWS_PER_CHUNK rows per chunk (header repeated), with row ranges and column names",
  needsMultimodal: false,
  sniff: (head) => looksLikeText(head) && looksLikeDelimited(head),
  async *load(source, ctx: LoaderContext) {
    const delimiter = extensionOf(source.filename) === ".tsv" || source.declaredType?.includes("tab-separated") ? "\t" : undefined;
    let header: string[] | null = null;
    let headerLine = "";
    let group: string[][] = [];
    let groupChars = 0;
    let groupStart = 1;
    let rowNumber = 0;
    const emit = function* (): Generator<Chunk> {
      if (group.length === 0) return;
      const body = unparse(group);
      const text = `${headerLine}\n${body}`;
      const position = { row_start: groupStart, row_end: groupStart + group.length - 1 };
      const metadata = { columns: header };
      if (text.length <= ctx.maxChunkChars) yield { text, position, metadata };
      else {
        ctx.warn(`row ${groupStart} is longer than the memory size limit and was split`);
        for (const piece of chunkProse(text, proseLimits(ctx))) yield { text: piece.text, position: { ...position, char_start: piece.start, char_end: piece.end }, metadata };
      }
      group = [];
      groupChars = 0;
    };
    for await (const row of rowsOf(source, delimiter, ctx.signal)) {
      if (!header) {
        header = row.map((cell) => cell.trim());
        headerLine = unparse([header]);
        continue;
      }
      rowNumber++;
      const rowChars = row.reduce((sum, cell) => sum + cell.length + 1, 0);
      if (group.length > 0 && (group.length >= ctx.csvRowsPerChunk || headerLine.length + groupChars + rowChars > ctx.chunkChars)) {
        yield* emit();
      }
      if (group.length === 0) groupStart = rowNumber;
      group.push(row);
      groupChars += rowChars;
    }
    yield* emit();
    if (!header) throw new LoaderError("empty", "the CSV file has no rows");
  },
};
