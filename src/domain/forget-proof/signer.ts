// The service's ed25519 signing key for forget certificates. FORGET_SIGNING_KEY (base64 32-byte
// seed) wins; otherwise a key is generated once and persisted: embedded mode in SVC_DATA_DIR (file
// mode 0600), server mode in service_signing_keys, a table the app role cannot read. Loaded lazily,
// once.
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import * as ed from "@noble/ed25519";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Config } from "../../config/schema";
import type { Database, Tx } from "../../data/pools";
import {
  insertSigningKey,
  lockSigningKeys,
  newestSigningSeed,
} from "../../data/queries/forget-proof/signing-keys";
import { withSystem } from "../../data/with-system";
import { sha256Hex } from "../../lib/hash";

export type ForgetSigner = {
  /** First 16 hex chars of SHA-256(public key). */
  keyId(): Promise<string>;
  publicKeyHex(): Promise<string>;
  sign(message: Uint8Array): Promise<string>;
};

type KeyPair = { seed: Uint8Array; publicKey: Uint8Array; keyId: string };

async function pairFromSeed(seed: Uint8Array): Promise<KeyPair> {
  const publicKey = await ed.getPublicKeyAsync(seed);
  return { seed, publicKey, keyId: sha256Hex(publicKey).slice(0, 16) };
}

async function fromDataDir(dir: string): Promise<Uint8Array> {
  const path = join(dir, "forget-signing-key");
  try {
    const seed = Buffer.from((await readFile(path, "utf8")).trim(), "base64");
    if (seed.length === 32) return new Uint8Array(seed);
    throw new Error(`${path} does not hold a base64 32-byte seed`);
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOENT") throw error;
  }
  await mkdir(dir, { recursive: true });
  const seed = ed.utils.randomSecretKey();
  await writeFile(path, `${Buffer.from(seed).toString("base64")}\n`, {
    mode: 0o600,
    flag: "wx",
  }).catch(async (error) => {
    if ((error as { code?: string }).code === "EEXIST") return;
    throw error;
  });
  await chmod(path, 0o600);
  return new Uint8Array(Buffer.from((await readFile(path, "utf8")).trim(), "base64"));
}

async function fromDatabase(db: Database): Promise<Uint8Array> {
  return withSystem(db, async (tx: Tx) => {
    await lockSigningKeys(tx);
    const existing = await newestSigningSeed(tx);
    if (existing) return existing;
    const pair = await pairFromSeed(ed.utils.randomSecretKey());
    await insertSigningKey(tx, pair);
    return pair.seed;
  });
}

export function createForgetSigner(config: Config, db: Database): ForgetSigner {
  let loading: Promise<KeyPair> | null = null;
  const pair = () => {
    loading ??= (async () => {
      if (config.FORGET_SIGNING_KEY)
        return pairFromSeed(new Uint8Array(Buffer.from(config.FORGET_SIGNING_KEY, "base64")));
      return pairFromSeed(
        db.kind === "embedded" ? await fromDataDir(config.SVC_DATA_DIR) : await fromDatabase(db),
      );
    })().catch((error) => {
      loading = null;
      throw error;
    });
    return loading;
  };
  // Warm up now so the first forget does not load the key while holding its tenant transaction; a
  // failure here (e.g. before migrations) is retried on first use.
  pair().catch(() => {});
  return {
    keyId: async () => (await pair()).keyId,
    publicKeyHex: async () => bytesToHex((await pair()).publicKey),
    sign: async (message) => bytesToHex(await ed.signAsync(message, (await pair()).seed)),
  };
}

/** The public half of the signing key, as GET /v1/forget/keys lists it. */
export const publicSigningKeys = async (signer: ForgetSigner) => ({
  keys: [
    {
      key_id: await signer.keyId(),
      algorithm: "ed25519" as const,
      public_key: await signer.publicKeyHex(),
    },
  ],
});
