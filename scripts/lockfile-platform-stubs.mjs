// npm ci refuses a lockfile that lacks an entry for any optional dependency. The npm registry reachable
// here does not serve msgpackr-extract's macOS/Windows/ARM builds, so `npm install` leaves them out of
// package-lock.json. This adds inert entries (os/cpu-restricted, never installed on linux-x64) so that
// `npm ci` accepts the lockfile. Run after any `npm install`: node scripts/lockfile-platform-stubs.mjs
import { readFileSync, writeFileSync } from "node:fs";

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const packages = lock.packages;
let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${name}`;
    if (packages[target] || packages[`${location}/${target}`]) continue;
    const platform = /-(darwin|linux|win32|freebsd|android)-(arm64|x64|arm|ia32)$/.exec(name);
    if (!platform) continue;
    packages[target] = { version, optional: true, os: [platform[1]], cpu: [platform[2]] };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform-only optional entries`);
