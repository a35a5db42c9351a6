// Picks the object storage from configuration (STORAGE_BACKEND).
import path from "node:path";
import type { Config } from "../../config/schema";
import { createFsStorage } from "./fs";
import type { ObjectStorage } from "./port";
import { createS3Storage } from "./s3";

export function selectStorage(config: Config): ObjectStorage {
  if (config.STORAGE_BACKEND === "fs")
    return createFsStorage(config.STORAGE_FS_DIR ?? path.join(config.SVC_DATA_DIR, "uploads"));
  const missing = (
    ["STORAGE_S3_BUCKET", "STORAGE_S3_ACCESS_KEY_ID", "STORAGE_S3_SECRET_ACCESS_KEY"] as const
  ).filter((name) => !config[name]);
  if (missing.length > 0) throw new Error(`STORAGE_BACKEND=s3 needs ${missing.join(", ")}`);
  return createS3Storage({
    bucket: config.STORAGE_S3_BUCKET!,
    endpoint: config.STORAGE_S3_ENDPOINT,
    region: config.STORAGE_S3_REGION,
    accessKeyId: config.STORAGE_S3_ACCESS_KEY_ID!,
    secretAccessKey: config.STORAGE_S3_SECRET_ACCESS_KEY!,
  });
}
