// Recognising formats from their first bytes: magic numbers for binary formats, a text test for the
// rest. Declared types and file names only choose among text formats; they never override the
// bytes.

/** How many leading bytes the loaders' sniff() sees. */
export const SNIFF_BYTES = 8192;

export const startsWith = (head: Uint8Array, magic: string | number[], at = 0): boolean => {
  const bytes = typeof magic === "string" ? [...magic].map((c) => c.charCodeAt(0)) : magic;
  if (head.length < at + bytes.length) return false;
  return bytes.every((b, i) => head[at + i] === b);
};

/** PDF allows junk before the header, within the first 1024 bytes. */
export function isPdf(head: Uint8Array): boolean {
  const window = head.subarray(0, 1024);
  for (let i = 0; i + 5 <= window.length; i++) if (startsWith(window, "%PDF-", i)) return true;
  return false;
}

export const isZip = (head: Uint8Array) => startsWith(head, [0x50, 0x4b, 0x03, 0x04]);
/** OLE2 compound file: legacy .doc, or an encrypted (password-protected) OOXML document. */
export const isOleCompound = (head: Uint8Array) =>
  startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

export type MediaKind = { mimeType: string; extension: string };

export function imageKind(head: Uint8Array): MediaKind | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { mimeType: "image/png", extension: ".png" };
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { mimeType: "image/jpeg", extension: ".jpg" };
  if (startsWith(head, "GIF87a") || startsWith(head, "GIF89a"))
    return { mimeType: "image/gif", extension: ".gif" };
  if (startsWith(head, "RIFF") && startsWith(head, "WEBP", 8))
    return { mimeType: "image/webp", extension: ".webp" };
  return null;
}

export function audioKind(head: Uint8Array): MediaKind | null {
  if (
    startsWith(head, "ID3") ||
    (head.length > 1 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0 && (head[1]! & 0x06) !== 0)
  )
    return { mimeType: "audio/mpeg", extension: ".mp3" };
  if (startsWith(head, "RIFF") && startsWith(head, "WAVE", 8))
    return { mimeType: "audio/wav", extension: ".wav" };
  if (startsWith(head, "OggS")) return { mimeType: "audio/ogg", extension: ".ogg" };
  if (startsWith(head, "fLaC")) return { mimeType: "audio/flac", extension: ".flac" };
  if (
    startsWith(head, "ftyp", 4) &&
    (startsWith(head, "M4A ", 8) ||
      startsWith(head, "M4B ", 8) ||
      startsWith(head, "mp42", 8) ||
      startsWith(head, "isom", 8))
  )
    return { mimeType: "audio/mp4", extension: ".m4a" };
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3]))
    return { mimeType: "audio/webm", extension: ".webm" };
  return null;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Text: no NUL byte, and valid UTF-8 (a sequence cut off by the end of the head is fine), or at
 * least 95% printable bytes (a single-byte legacy encoding, decoded with replacement characters).
 */
export function looksLikeText(head: Uint8Array): boolean {
  if (head.length === 0) return false;
  if (head.includes(0)) return false;
  let end = head.length;
  // Back off a possibly truncated trailing UTF-8 sequence.
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const b = head[end - i]!;
    if ((b & 0xc0) === 0xc0) {
      end -= i;
      break;
    }
    if ((b & 0x80) === 0) break;
  }
  try {
    strictUtf8.decode(head.subarray(0, end));
    return true;
  } catch {
    let printable = 0;
    for (const b of head) if (b >= 0x20 || b === 9 || b === 10 || b === 13) printable++;
    return printable / head.length >= 0.95;
  }
}

export function extensionOf(filename: string | null): string {
  if (!filename) return "";
  const base = filename.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot).toLowerCase() : "";
}

/** "Text/HTML; charset=utf-8" → "text/html". */
export function baseType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}
