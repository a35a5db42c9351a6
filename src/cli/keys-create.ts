// `svc keys create --org <name> [--superadmin]`: prints one JSON line.
import { migrateAsOwner } from "../app/database-roles";
import { randomBytes } from "node:crypto";
import { openDatabase } from "../app/build-deps";
import { systemActor } from "../domain/actor";
import { ensureOrg } from "../domain/keys/bootstrap";
import { createKey } from "../domain/keys/manage";
import { configOrExit } from "./config";
import { UsageError } from "./usage";

export async function runKeysCreate(flags: { org?: string; superadmin?: boolean; name?: string }): Promise<void> {
  if (flags.superadmin && !flags.org) {
    // The superadmin key is configuration, never stored (spec: no stored superadmin role).
    const key = `svc_sa_${randomBytes(32).toString("base64url")}`;
    console.log(JSON.stringify({ org_id: null, key_id: null, key, role: "superadmin", set_env: "SUPERADMIN_API_KEY" }));
    return;
  }
  if (!flags.org) throw new UsageError("keys create needs --org <name> (or --superadmin)");
  if (flags.org.length > 100) throw new UsageError("--org is at most 100 characters");
  const config = configOrExit();
  const db = await openDatabase(config, "svc-cli");
  try {
    await migrateAsOwner(config, db, "svc-cli");
    const orgId = await ensureOrg(db, flags.org);
    const created = await createKey(db, systemActor(orgId), flags.name ?? "cli");
    console.log(JSON.stringify({ org_id: orgId, key_id: created.key_id, key: created.key }));
  } finally {
    await db.close();
  }
}
