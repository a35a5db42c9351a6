// Prose chunking: cuts text into chunks of about `target` characters at the best boundary available
// (paragraph, then sentence, then whitespace), so a chunk never ends inside a word; the next chunk
// starts up to `overlap` characters earlier, at a sentence (else word) start. Works incrementally:
// text can be pushed piece by piece and memory stays bounded by a few chunk lengths. Offsets are in
// UTF-16 code units of the whole input (what JavaScript's String indexes count).
export type ChunkLimits = {
  /** Target chunk length. */
  target: number;
  /** How much of a chunk's end may be repeated at the next chunk's start. */
  overlap: number;
  /** Hard ceiling (the memory content limit): only a "word" longer than this is ever cut. */
  hardMax: number;
};

export type ProseChunk = { text: string; start: number; end: number; forcedSplit: boolean };

const SENTENCE_END = /[.!?…。！？]["'”’)\]]*\s+/g;

/** End (after the trailing space) of the last sentence whose punctuation lies in [from, to). */
function lastSentenceEnd(text: string, from: number, to: number): number {
  SENTENCE_END.lastIndex = from;
  let found = -1;
  for (let m = SENTENCE_END.exec(text); m && m.index < to; m = SENTENCE_END.exec(text))
    found = m.index + m[0].length;
  return found;
}

const isSpace = (code: number) =>
  code === 32 ||
  (code >= 9 && code <= 13) ||
  code === 160 ||
  code === 0x2028 ||
  code === 0x2029 ||
  code === 0x3000;

export class ProseChunker {
  private buffer = "";
  /** Absolute offset of buffer[0]. */
  private base = 0;
  /** Where the next chunk starts, relative to the buffer. */
  private pos = 0;

  constructor(private readonly limits: ChunkLimits) {
    if (limits.target < 1 || limits.hardMax < limits.target)
      throw new Error("chunk limits must satisfy 1 <= target <= hardMax");
  }

  push(text: string): void {
    // Keep the buffer small: drop what every future chunk starts after.
    if (this.pos > this.limits.hardMax) {
      this.buffer = this.buffer.slice(this.pos);
      this.base += this.pos;
      this.pos = 0;
    }
    this.buffer += text;
  }

  /** Chunks that are certain now; with `final`, everything that is left. */
  *drain(final: boolean): Generator<ProseChunk> {
    for (;;) {
      this.pos = this.skipSpace(this.pos);
      if (this.pos >= this.buffer.length) return;
      const cut = this.pickEnd(final);
      if (cut === null) return;
      const text = this.buffer.slice(this.pos, cut.end).trimEnd();
      yield {
        text,
        start: this.base + this.pos,
        end: this.base + this.pos + text.length,
        forcedSplit: cut.forced,
      };
      if (cut.end >= this.buffer.length) {
        this.pos = cut.end;
        return;
      }
      this.pos = this.nextStart(cut.end);
    }
  }

  private skipSpace(at: number): number {
    while (at < this.buffer.length && isSpace(this.buffer.charCodeAt(at))) at++;
    return at;
  }

  private pickEnd(final: boolean): { end: number; forced: boolean } | null {
    const { target, hardMax } = this.limits;
    const buf = this.buffer;
    const limit = this.pos + target;
    if (limit >= buf.length) return final ? { end: buf.length, forced: false } : null;
    const floor = this.pos + Math.floor(target / 2);
    const paragraph = buf.lastIndexOf("\n\n", limit);
    if (paragraph >= floor) return { end: paragraph, forced: false };
    const sentence = lastSentenceEnd(buf, floor, limit);
    if (sentence > floor) return { end: sentence, forced: false };
    for (let i = limit; i > this.pos; i--)
      if (isSpace(buf.charCodeAt(i))) return { end: i, forced: false };
    // One word longer than the target: keep it whole up to the hard ceiling.
    const ceiling = this.pos + hardMax;
    for (let i = limit; i < Math.min(buf.length, ceiling); i++)
      if (isSpace(buf.charCodeAt(i))) return { end: i, forced: false };
    if (buf.length < ceiling) return final ? { end: buf.length, forced: false } : null;
    // Never split a surrogate pair.
    const end =
      ceiling -
      (buf.charCodeAt(ceiling - 1) >= 0xd800 && buf.charCodeAt(ceiling - 1) <= 0xdbff ? 1 : 0);
    return { end, forced: true };
  }

  /**
   * The start of the next chunk: the earliest sentence (else word) start within the overlap window,
   * which is at most half of this chunk so every chunk moves forward by at least half its length.
   */
  private nextStart(end: number): number {
    const overlap = Math.min(this.limits.overlap, Math.floor((end - this.pos) / 2));
    const from = end - overlap;
    if (overlap > 0) {
      SENTENCE_END.lastIndex = Math.max(this.pos, from - 4);
      for (
        let m = SENTENCE_END.exec(this.buffer);
        m && m.index < end;
        m = SENTENCE_END.exec(this.buffer)
      ) {
        const start = m.index + m[0].length;
        if (start >= from && start < end) return start;
      }
      for (let i = from; i < end; i++)
        if (isSpace(this.buffer.charCodeAt(i - 1)) && !isSpace(this.buffer.charCodeAt(i))) return i;
    }
    return end;
  }
}

/** Chunks a whole string at once; offsets are relative to `offset`. */
export function chunkProse(text: string, limits: ChunkLimits, offset = 0): ProseChunk[] {
  const chunker = new ProseChunker(limits);
  chunker.push(text);
  return [...chunker.drain(true)].map((c) => ({
    ...c,
    start: c.start + offset,
    end: c.end + offset,
  }));
}
