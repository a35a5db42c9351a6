// The export stream: NDJSON, one record per line, `{"k":<kind>,"h":<hash>,"d":<row as JSON>}`. Each
// h is SHA-256(previous h ‖ "\n" ‖ kind ‖ "\n" ‖ the d text), from 64 zeros, so an altered, dropped
// or reordered line breaks the chain at that line; the stream opens with a header and closes with
// an end record counting its lines, so a truncated stream is caught too. The d text is kept
// verbatim.
import { AppError } from "../../lib/errors";
import { sha256Hex } from "../../lib/hash";

export const EXPORT_FORMAT = "svc-export";
export const EXPORT_FORMAT_VERSION = 1;
const GENESIS = "0".repeat(64);
const LINE = /^\{"k":"([a-z_]{1,32})","h":"([0-9a-f]{64})","d":(\{.*\})\}$/;

export type Header = {
  format: string;
  version: number;
  org_id: string;
  exported_at: string;
  source: string;
};
export type StreamRecord = { line: number; kind: string; data: string };

const chain = (prev: string, kind: string, data: string) => sha256Hex(`${prev}\n${kind}\n${data}`);

/** Writes records as chained lines (each ends with "\n"). */
export function lineWriter() {
  let prev = GENESIS;
  let lines = 0;
  return {
    line(kind: string, data: string): string {
      prev = chain(prev, kind, data);
      lines++;
      return `{"k":"${kind}","h":"${prev}","d":${data}}\n`;
    },
    end(): string {
      return this.line("end", JSON.stringify({ lines: lines + 1 }));
    },
  };
}

export const invalidStream = (line: number, why: string) =>
  new AppError(
    "validation-failed",
    `The export stream is refused at line ${line}: ${why}; nothing was imported`,
    { fields: { errors: [{ path: `line:${line}`, message: why }] } },
  );

/**
 * Checks lines in order; throws invalidStream naming the first bad line. Call finish() at the end
 * of input.
 */
export function lineVerifier() {
  let prev = GENESIS;
  let line = 0;
  let ended = false;
  return {
    check(text: string): StreamRecord {
      line++;
      if (ended) throw invalidStream(line, "data after the end record");
      const match = LINE.exec(text);
      if (!match) throw invalidStream(line, "not an export record");
      const [, kind, hash, data] = match as unknown as [string, string, string, string];
      const expected = chain(prev, kind, data);
      if (hash !== expected)
        throw invalidStream(
          line,
          "hash mismatch (the line was altered, or a line before it was removed or reordered)",
        );
      prev = expected;
      if (line === 1) {
        const header = JSON.parse(data) as Partial<Header>;
        if (kind !== "header" || header.format !== EXPORT_FORMAT)
          throw invalidStream(line, "the stream does not start with an svc-export header");
        if (header.version !== EXPORT_FORMAT_VERSION)
          throw invalidStream(
            line,
            `format version ${header.version} is not supported (expected ${EXPORT_FORMAT_VERSION})`,
          );
      }
      if (kind === "end") {
        if ((JSON.parse(data) as { lines?: number }).lines !== line)
          throw invalidStream(line, "the end record's line count does not match");
        ended = true;
      }
      return { line, kind, data };
    },
    finish(): void {
      if (!ended)
        throw invalidStream(
          line + 1,
          `the stream ends after line ${line} without its end record (truncated)`,
        );
    },
  };
}
