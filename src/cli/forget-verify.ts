// `svc forget verify <file> --public-key <hex>`: checks a saved forget certificate offline against
// the service's published public key (GET /v1/forget/keys). Prints one JSON line; exit 1 if it
// fails.
import { readFile } from "node:fs/promises";
import { verifyCertificate } from "../domain/forget-proof/verify";
import { UsageError } from "./usage";

export async function runForgetVerify(
  file: string | undefined,
  flags: { "public-key"?: string },
): Promise<void> {
  if (!file) throw new UsageError("forget verify needs the certificate file");
  const publicKey = flags["public-key"];
  if (!publicKey || !/^[0-9a-f]{64}$/.test(publicKey))
    throw new UsageError(
      "forget verify needs --public-key <64 lowercase hex chars> from GET /v1/forget/keys",
    );
  const verdict = await verifyCertificate(await readFile(file, "utf8"), publicKey);
  console.log(JSON.stringify(verdict));
  if (!verdict.ok) process.exit(1);
}
