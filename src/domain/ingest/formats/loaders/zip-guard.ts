// Zip-bomb guard for zip-based formats (DOCX): the central directory states every entry's sizes, so
// a file that would unpack to too much is refused before anything is inflated.
import { LoaderError } from "../loader";

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
/** An entry may inflate this much at most (ordinary XML compresses 5–20×). */
const MAX_RATIO = 200;

export function checkZip(bytes: Uint8Array, maxUncompressed: number): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65557); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0)
    throw new LoaderError(
      "corrupt",
      "the file is not a complete zip archive (no end of central directory)",
    );
  const entries = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL)
      throw new LoaderError("corrupt", "the zip archive's central directory is damaged");
    const compressed = view.getUint32(at + 20, true);
    const uncompressed = view.getUint32(at + 24, true);
    if (compressed === 0xffffffff || uncompressed === 0xffffffff)
      throw new LoaderError(
        "too-large",
        "the archive uses zip64 sizes, which no document of an acceptable size needs",
      );
    total += uncompressed;
    if (total > maxUncompressed)
      throw new LoaderError(
        "too-large",
        `the archive unpacks to more than INGEST_DOCX_MAX_UNCOMPRESSED_BYTES (${maxUncompressed})`,
      );
    if (uncompressed > 1_000_000 && uncompressed > compressed * MAX_RATIO)
      throw new LoaderError(
        "too-large",
        `an archive entry inflates more than ${MAX_RATIO}:1 (a zip bomb)`,
      );
    at +=
      46 +
      view.getUint16(at + 28, true) +
      view.getUint16(at + 30, true) +
      view.getUint16(at + 32, true);
  }
}
