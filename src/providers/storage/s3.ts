// Object storage on S3 or any S3-compatible service (STORAGE_BACKEND=s3), through Bun's built-in
// S3Client: SigV4 signing and presigned URLs without an SDK.
import { rm } from "node:fs/promises";
import path from "node:path";
import type { ObjectStorage } from "./port";

export type S3Options = {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
};

export function createS3Storage(options: S3Options): ObjectStorage {
  const client = new Bun.S3Client({
    bucket: options.bucket,
    endpoint: options.endpoint,
    region: options.region,
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
  });
  const isMissing = (error: unknown) =>
    (error as { code?: string }).code === "NoSuchKey" ||
    /not ?found|NoSuchKey|does not exist|404/i.test(String((error as Error).message));
  return {
    backend: "s3",
    async putFile(key, localPath, type) {
      await client.write(key, Bun.file(localPath), type ? { type } : {});
      await rm(localPath, { force: true });
    },
    async stat(key) {
      try {
        const s = await client.file(key).stat();
        return { size: s.size, type: s.type || null };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async head(key, length) {
      return client.file(key).slice(0, length).bytes();
    },
    async openLocal(key, scratchDir) {
      const local = path.join(scratchDir, `${crypto.randomUUID()}.download`);
      try {
        await Bun.write(local, client.file(key));
      } catch (error) {
        await rm(local, { force: true });
        // The worker's contract (material.ts) reads a vanished object as ENOENT, as with fs
        // storage.
        if (isMissing(error))
          throw Object.assign(new Error(`object ${key} is not in the bucket`), { code: "ENOENT" });
        throw error;
      }
      return { path: local, release: () => rm(local, { force: true }) };
    },
    async delete(key) {
      await client.file(key).delete();
    },
    presignPut(key, { expiresInSeconds }) {
      // No `type`: Bun would add response-content-type, a GET-only override. Only host is signed,
      // so the client's Content-Type header is stored as sent.
      return client.presign(key, { method: "PUT", expiresIn: expiresInSeconds });
    },
  };
}
