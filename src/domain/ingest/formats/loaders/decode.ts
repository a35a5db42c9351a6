// Whole-document text for the loaders that need all of it at once (Markdown, code): UTF-8 with a
// BOM dropped, NULs replaced so every offset stays valid.
import { withoutNul } from "../chunk/limits";
import type { LoaderSource } from "../loader";

export async function readText(source: LoaderSource): Promise<string> {
  const text = new TextDecoder("utf-8", { ignoreBOM: false }).decode(await source.bytes());
  return withoutNul(text);
}
