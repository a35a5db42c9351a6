// The embedded-mode signing key: generated once into SVC_DATA_DIR (mode 0600) and reused by the
// next start.
import { expect, test } from "bun:test";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as ed from "@noble/ed25519";
import { hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { loadConfig } from "../../../src/config/load";
import type { Database } from "../../../src/data/pools";
import { createForgetSigner } from "../../../src/domain/forget-proof/signer";

test("embedded mode persists a generated key in SVC_DATA_DIR and reuses it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-signer-"));
  const config = loadConfig({}, { SVC_DATA_DIR: dir, FORGET_PROOF_ENABLED: true });
  const noDatabase = { kind: "embedded" } as Database; // embedded mode never reads the key from the database
  const first = createForgetSigner(config, noDatabase);
  const publicKey = await first.publicKeyHex();
  expect(statSync(join(dir, "forget-signing-key")).mode & 0o777).toBe(0o600);
  const second = createForgetSigner(config, noDatabase);
  expect(await second.publicKeyHex()).toBe(publicKey);
  const signature = await second.sign(utf8ToBytes("hello"));
  expect(
    await ed.verifyAsync(hexToBytes(signature), utf8ToBytes("hello"), hexToBytes(publicKey)),
  ).toBe(true);
  expect(await first.keyId()).toMatch(/^[0-9a-f]{16}$/);
});
