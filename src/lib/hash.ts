// SHA-256 helpers shared by keys, migrations, audit and certificates. Bun's native hasher: every
// request hashes its API key (to find it in the key cache) before anything else, refused requests
// included, and the native one costs about a tenth of a JavaScript SHA-256.
export function sha256Hex(input: string | Uint8Array): string {
  return Bun.SHA256.hash(input, "hex");
}

export function sha256Bytes(input: string | Uint8Array): Uint8Array {
  const digest = Bun.SHA256.hash(input); // a Uint8Array when no output buffer is passed
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
}
