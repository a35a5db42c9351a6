// CSV (and TSV): parsed by papaparse block by block while the file streams, so memory stays flat.
// The first row is the header; each chunk holds up to INGEST_CSV_ROWS_PER_CHUNK rows (fewer if
// INGEST_CHUNK_CHARS is reached), written back as comma-separated CSV under a repetition of the
// header line, so every memory reads on its own.
import Papa from "papaparse";
import { proseLimits, withoutNul } from "../chunk/limits";
import { chunkProse } from "../chunk/prose";
import type { Chunk, Loader, LoaderContext, LoaderSource } from "../loader";
import { LoaderError } from "../loader";
import { extensionOf, looksLikeText } from "../sniff";

/**
 * The longest row (a partial row waiting for its line end included) the loader holds: a 20 MB cell
 * would otherwise go to the parser and the chunker in one synchronous piece and stall the worker's
 * event loop.
 */
export const CSV_MAX_ROW_CHARS = 1_048_576;

const rowTooLong = () =>
  new LoaderError("too-large", `a CSV row is longer than ${CSV_MAX_ROW_CHARS} characters`);

const unparse = (rows: string[][]) => Papa.unparse(rows, { newline: "\n" });

/** A first line with a comma, semicolon or tab outside quotes. */
function looksLikeDelimited(head: Uint8Array): boolean {
  const firstLine = new TextDecoder().decode(head.subarray(0, 4096)).split(/\r?\n/, 1)[0] ?? "";
  return /[,;\t]/.test(firstLine);
}

/**
 * Incremental parsing: text accumulates until the last line end outside quotes, and that block of
 * whole rows goes to papaparse (which guesses the delimiter on the first block; later blocks reuse
 * it). The buffer holds at most one partial row, and nothing is read ahead of the consumer
 * (backpressure).
 */
export class CsvRowStream {
  private buffer = "";
  private scanned = 0;
  private inQuotes = false;
  /** Where the row being scanned starts in the buffer. */
  private rowStart = 0;

  constructor(private delimiter: string | undefined) {}

  push(text: string): string[][] {
    this.buffer += text;
    let cut = -1;
    for (let i = this.scanned; i < this.buffer.length; i++) {
      const code = this.buffer.charCodeAt(i);
      if (code === 34) this.inQuotes = !this.inQuotes;
      else if (code === 10 && !this.inQuotes) {
        if (i - this.rowStart > CSV_MAX_ROW_CHARS) throw rowTooLong();
        cut = i + 1;
        this.rowStart = cut;
      }
    }
    this.scanned = this.buffer.length;
    if (this.buffer.length - this.rowStart > CSV_MAX_ROW_CHARS) throw rowTooLong();
    if (cut < 0) return [];
    const block = this.buffer.slice(0, cut);
    this.rowStart -= cut;
    this.buffer = this.buffer.slice(cut);
    this.scanned -= cut;
    return this.parse(block);
  }

  end(): string[][] {
    const rest = this.buffer;
    this.buffer = "";
    return rest.trim() === "" ? [] : this.parse(rest);
  }

  private parse(block: string): string[][] {
    const result = Papa.parse<string[]>(block, {
      delimiter: this.delimiter,
      skipEmptyLines: "greedy",
    });
    this.delimiter ??= result.meta.delimiter;
    return result.data;
  }
}

async function* rowsOf(
  source: LoaderSource,
  delimiter: string | undefined,
  signal?: AbortSignal,
): AsyncGenerator<string[]> {
  const rows = new CsvRowStream(delimiter);
  const decoder = new TextDecoder("utf-8");
  for await (const bytes of source.stream()) {
    signal?.throwIfAborted();
    yield* rows.push(withoutNul(decoder.decode(bytes, { stream: true })));
  }
  yield* rows.push(withoutNul(decoder.decode()));
  yield* rows.end();
}

export const csvLoader: Loader = {
  id: "csv",
  mimeTypes: ["text/csv", "text/tab-separated-values", "application/csv"],
  extensions: [".csv", ".tsv"],
  description:
    "CSV/TSV, streamed: the header row plus up to INGEST_CSV_ROWS_PER_CHUNK rows per chunk (header repeated), with row ranges and column names",
  needsMultimodal: false,
  sniff: (head) => looksLikeText(head) && looksLikeDelimited(head),
  async *load(source, ctx: LoaderContext) {
    const delimiter =
      extensionOf(source.filename) === ".tsv" || source.declaredType?.includes("tab-separated")
        ? "\t"
        : undefined;
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
        for (const piece of chunkProse(text, proseLimits(ctx)))
          yield {
            text: piece.text,
            position: { ...position, char_start: piece.start, char_end: piece.end },
            metadata,
          };
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
      if (
        group.length > 0 &&
        (group.length >= ctx.csvRowsPerChunk ||
          headerLine.length + groupChars + rowChars > ctx.chunkChars)
      ) {
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
