// DOCX: the zip is checked for bombs, then mammoth extracts the raw text (paragraphs separated by
// blank lines), cut into prose chunks with character offsets. A password-protected DOCX is an OLE2
// container, not a zip: it is recognised by its bytes and fails with reason encrypted.
import mammoth from "mammoth";
import { proseLimits, withoutNul } from "../chunk/limits";
import { chunkProse } from "../chunk/prose";
import { LoaderError, type Loader, type LoaderContext } from "../loader";
import { extensionOf, isOleCompound, isZip } from "../sniff";
import { checkZip } from "./zip-guard";

const WORD_EXTENSIONS = new Set([".docx", ".doc"]);
const wordPart = new TextEncoder().encode("word/");

function mentionsWordPart(head: Uint8Array): boolean {
  outer: for (let i = 0; i + wordPart.length <= head.length; i++) {
    for (let j = 0; j < wordPart.length; j++) if (head[i + j] !== wordPart[j]) continue outer;
    return true;
  }
  return false;
}

export const docxLoader: Loader = {
  id: "docx",
  mimeTypes: ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
  extensions: [".docx"],
  description:
    "Word .docx (mammoth): the document's text, cut into prose chunks with character offsets; zip bombs and password-protected files refused",
  needsMultimodal: false,
  sniff: (head, filename) =>
    (isZip(head) && (mentionsWordPart(head) || extensionOf(filename) === ".docx")) ||
    (isOleCompound(head) && WORD_EXTENSIONS.has(extensionOf(filename))),
  async *load(source, ctx: LoaderContext) {
    const bytes = await source.bytes();
    if (isOleCompound(bytes))
      throw new LoaderError(
        "encrypted",
        "the file is a password-protected Office document (or a legacy .doc, which is not supported); save it as an unprotected .docx",
      );
    checkZip(bytes, ctx.maxDocxUncompressedBytes);
    const result = await mammoth
      .extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })
      .catch((error: Error) => {
        throw new LoaderError("corrupt", `the DOCX cannot be read: ${error.message}`);
      });
    const text = withoutNul(result.value);
    for (const piece of chunkProse(text, proseLimits(ctx))) {
      ctx.signal?.throwIfAborted();
      yield { text: piece.text, position: { char_start: piece.start, char_end: piece.end } };
    }
  },
};
