// Object storage in a local directory (STORAGE_BACKEND=fs). Serve and worker processes must share
// it (one host, or a shared volume); otherwise use s3.
import { copyFile, mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { ObjectStorage } from "./port";

export function createFsStorage(root: string): ObjectStorage {
  const pathOf = (key: string) => {
    const full = path.resolve(root, key);
    if (!full.startsWith(path.resolve(root) + path.sep))
      throw new Error(`object key escapes the storage directory: ${key}`);
    return full;
  };
  return {
    backend: "fs",
    async putFile(key, localPath) {
      const target = pathOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      try {
        await rename(localPath, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
        // Another filesystem: copy, then remove the spool file.
        await copyFile(localPath, target);
        await rm(localPath, { force: true });
      }
    },
    async stat(key) {
      try {
        const s = await stat(pathOf(key));
        return { size: s.size, type: null };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async head(key, length) {
      const handle = await open(pathOf(key), "r");
      try {
        const buffer = new Uint8Array(length);
        const { bytesRead } = await handle.read(buffer, 0, length, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    async openLocal(key) {
      return { path: pathOf(key), release: async () => {} };
    },
    async delete(key) {
      const target = pathOf(key);
      await rm(target, { force: true });
      await rm(path.dirname(target), { recursive: false, force: true }).catch(() => {});
    },
  };
}
