// Every registered loader, and the choice of one for a source: binary formats are recognised by
// their bytes alone; among text formats the file extension, then the declared type, decides, and
// plain text takes whatever text is left. A declared type or extension the bytes contradict becomes
// a warning.
import type { Loader } from "./loader";
import { codeLoader } from "./loaders/code";
import { csvLoader } from "./loaders/csv";
import { docxLoader } from "./loaders/docx";
import { htmlLoader } from "./loaders/html";
import { markdownLoader } from "./loaders/markdown";
import { audioLoader, imageLoader } from "./loaders/media";
import { pdfLoader } from "./loaders/pdf";
import { textLoader } from "./loaders/text";
import { baseType, extensionOf, looksLikeText } from "./sniff";

/**
 * Binary formats first (their magic numbers are unambiguous), then the text family, plain text
 * last.
 */
export const BINARY_LOADERS: readonly Loader[] = [pdfLoader, docxLoader, imageLoader, audioLoader];
export const TEXT_LOADERS: readonly Loader[] = [htmlLoader, markdownLoader, csvLoader, codeLoader];
export const LOADERS: readonly Loader[] = [...BINARY_LOADERS, ...TEXT_LOADERS, textLoader];

export type Detection = { loader: Loader; detectedType: string; warnings: string[] };

const GENERIC_TYPES = new Set([
  "",
  "application/octet-stream",
  "binary/octet-stream",
  "application/x-www-form-urlencoded",
]);

function claimedBy(declared: string, ext: string): Loader | undefined {
  return LOADERS.find(
    (l) => (declared && l.mimeTypes.includes(declared)) || (ext && l.extensions.includes(ext)),
  );
}

export function detectLoader(
  head: Uint8Array,
  filename: string | null,
  declaredType: string | null,
): Detection | null {
  const declared = baseType(declaredType);
  const ext = extensionOf(filename);
  const loader =
    BINARY_LOADERS.find((l) => l.sniff(head, filename)) ??
    (looksLikeText(head)
      ? (TEXT_LOADERS.find(
          (l) => ext !== "" && l.extensions.includes(ext) && l.sniff(head, filename),
        ) ??
        TEXT_LOADERS.find(
          (l) => declared !== "" && l.mimeTypes.includes(declared) && l.sniff(head, null),
        ) ??
        TEXT_LOADERS.find((l) => l.sniff(head, null) && l.id === "html") ??
        textLoader)
      : undefined);
  if (!loader) return null;
  const detectedType = loader.typeOf?.(head) ?? loader.mimeTypes[0]!;
  const warnings: string[] = [];
  const claimed = claimedBy(declared, ext);
  if (
    claimed &&
    claimed !== loader &&
    !(claimed === textLoader && !BINARY_LOADERS.includes(loader))
  ) {
    warnings.push(
      `declared as ${declared || ext} but the content is ${detectedType}; read with the ${loader.id} loader`,
    );
  } else if (!claimed && !GENERIC_TYPES.has(declared) && BINARY_LOADERS.includes(loader)) {
    warnings.push(
      `declared as ${declared} but the content is ${detectedType}; read with the ${loader.id} loader`,
    );
  }
  return { loader, detectedType, warnings };
}

export function loaderById(id: string): Loader | undefined {
  return LOADERS.find((l) => l.id === id);
}
