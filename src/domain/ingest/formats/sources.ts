// LoaderSource implementations: a local file (streamed, never read whole unless a loader asks) and
// bytes in memory (posted text).
import { open } from "node:fs/promises";
import type { LoaderSource } from "./loader";
import { SNIFF_BYTES } from "./sniff";

export function fileSource(
  path: string,
  byteSize: number,
  filename: string | null,
  declaredType: string | null,
): LoaderSource {
  return {
    filename,
    declaredType,
    byteSize,
    bytes: () => Bun.file(path).bytes(),
    stream: () => Bun.file(path).stream(),
  };
}

export function bytesSource(
  bytes: Uint8Array,
  filename: string | null,
  declaredType: string | null,
): LoaderSource {
  return {
    filename,
    declaredType,
    byteSize: bytes.byteLength,
    bytes: async () => bytes,
    stream: () =>
      new ReadableStream({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      }),
  };
}

export async function fileHead(path: string, length = SNIFF_BYTES): Promise<Uint8Array> {
  const handle = await open(path, "r");
  try {
    const buffer = new Uint8Array(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** SHA-256 of a file, streamed. */
export async function fileSha256(path: string): Promise<Uint8Array> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of Bun.file(path).stream()) hasher.update(chunk);
  return new Uint8Array(hasher.digest());
}
