// The seeded development key is saved to SVC_DATA_DIR/dev-api-key (mode 0600) so a newcomer can
// read it again after the one-time banner scrolls away; every start says where it is.
import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

export const DEV_KEY_FILE = "dev-api-key";

export function devKeyPath(dataDir: string): string {
  return resolve(join(dataDir, DEV_KEY_FILE));
}

/** Writes the key owner-only; returns the absolute path. */
export async function saveDevKey(dataDir: string, key: string): Promise<string> {
  const path = devKeyPath(dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(path, `${key}\n`, { mode: 0o600 });
  await chmod(path, 0o600); // writeFile keeps the mode of a file that already existed
  return path;
}

/**
 * The banner for this start: the key itself only when it was just seeded, its file on every start.
 */
export function devKeyBanner(path: string, seededKey: string | undefined): string | undefined {
  if (seededKey)
    return `\n  Development API key (new): ${seededKey}\n  Saved to ${path} (owner-only). Use it as: Authorization: Bearer $(cat ${path})\n`;
  if (existsSync(path))
    return `\n  Development API key: in ${path}. Use it as: Authorization: Bearer $(cat ${path})\n`;
  return undefined;
}
