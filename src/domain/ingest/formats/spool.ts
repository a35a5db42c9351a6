// Local scratch files for uploads being received and pages being fetched (INGEST_SPOOL_DIR).
import { mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Config } from "../../../config/schema";

export function spoolDirOf(config: Pick<Config, "INGEST_SPOOL_DIR">): string {
  const dir = config.INGEST_SPOOL_DIR ?? path.join(os.tmpdir(), "svc-ingest-spool");
  mkdirSync(dir, { recursive: true });
  return dir;
}

export type ScratchFile = { path: string; remove(): Promise<void> };

export function scratchFile(dir: string, suffix: string): ScratchFile {
  const file = path.join(dir, `${crypto.randomUUID()}${suffix}`);
  return { path: file, remove: () => rm(file, { force: true }) };
}
