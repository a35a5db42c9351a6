// PDF: text extracted page by page with unpdf (pdf.js), each page cut into prose chunks that keep
// their page number. Encrypted files, broken files and files without a text layer (scans) fail the
// job with a reason instead of yielding nothing.
import { getDocumentProxy } from "unpdf";
import { proseLimits, withoutNul } from "../chunk/limits";
import { chunkProse } from "../chunk/prose";
import { LoaderError, type Loader, type LoaderContext } from "../loader";
import { isPdf } from "../sniff";

type TextItem = { str?: string; hasEOL?: boolean };

async function openPdf(bytes: Uint8Array) {
  try {
    // pdf.js takes ownership of the buffer it is given; a copy keeps the source's bytes usable.
    return await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === "PasswordException")
      throw new LoaderError("encrypted", "the PDF is password-protected");
    throw new LoaderError(
      "corrupt",
      `the PDF cannot be read: ${(error as Error)?.message ?? String(error)}`,
    );
  }
}

export const pdfLoader: Loader = {
  id: "pdf",
  mimeTypes: ["application/pdf"],
  extensions: [".pdf"],
  description:
    "PDF text layer (unpdf), page by page: prose chunks with the page number and character offsets within the page; scans without text fail with reason empty",
  needsMultimodal: false,
  sniff: (head) => isPdf(head),
  async *load(source, ctx: LoaderContext) {
    const pdf = await openPdf(await source.bytes());
    try {
      if (pdf.numPages > ctx.maxPdfPages)
        throw new LoaderError(
          "too-large",
          `the PDF has ${pdf.numPages} pages; INGEST_PDF_MAX_PAGES is ${ctx.maxPdfPages}`,
        );
      const limits = proseLimits(ctx);
      for (let number = 1; number <= pdf.numPages; number++) {
        ctx.signal?.throwIfAborted();
        const page = await pdf.getPage(number).catch((error: Error) => {
          throw new LoaderError(
            "corrupt",
            `page ${number} of the PDF cannot be read: ${error.message}`,
          );
        });
        const content = await page.getTextContent();
        const text = withoutNul(
          (content.items as TextItem[])
            .map((item) => (item.str ?? "") + (item.hasEOL ? "\n" : ""))
            .join(""),
        );
        page.cleanup();
        for (const piece of chunkProse(text, limits))
          yield {
            text: piece.text,
            position: { page: number, char_start: piece.start, char_end: piece.end },
          };
      }
    } finally {
      await pdf.destroy();
    }
  },
};
