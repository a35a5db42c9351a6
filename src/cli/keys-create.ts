// `svc keys create --org <name> [--name <label>] [--scopes <list>]` or `--superadmin`: prints one
// JSON line. Without --scopes the key holds every scope (an operator key); with it, exactly the
// listed ones.
import { migrateAsOwner } from "../app/database-roles";
import { randomBytes } from "node:crypto";
import { openDatabase } from "../app/build-deps";
import { systemActor } from "../domain/actor";
import { ensureOrg } from "../domain/keys/bootstrap";
import { createKey } from "../domain/keys/manage";
import { parseScopeList } from "../lib/scopes";
import { configOrExit } from "./config";
import { UsageError } from "./usage";

export async function runKeysCreate(flags: {
  org?: string;
  superadmin?: boolean;
  name?: string;
  scopes?: string;
}): Promise<void> {
  if (flags.superadmin && flags.scopes !== undefined)
    throw new UsageError("--scopes is for tenant keys; the superadmin key is not scoped");
  if (flags.superadmin && !flags.org) {
    // The superadmin key is configuration, never stored (spec: no stored superadmin role).
    const key = `svc_sa_${randomBytes(32).toString("base64url")}`;
    console.log(
      JSON.stringify({
        org_id: null,
        key_id: null,
        key,
        role: "superadmin",
        set_env: "SUPERADMIN_API_KEY",
      }),
    );
    return;
  }
  if (!flags.org) throw new UsageError("keys create needs --org <name> (or --superadmin)");
  if (flags.org.length > 100) throw new UsageError("--org is at most 100 characters");
  let scopes;
  try {
    scopes = flags.scopes === undefined ? undefined : parseScopeList(flags.scopes);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const config = configOrExit();
  const db = await openDatabase(config, "svc-cli");
  try {
    await migrateAsOwner(config, db, "svc-cli");
    const orgId = await ensureOrg(db, flags.org);
    const created = await createKey(
      db,
      systemActor(orgId),
      flags.name ?? "cli",
      "standard",
      undefined,
      scopes,
    );
    console.log(
      JSON.stringify({
        org_id: orgId,
        key_id: created.key_id,
        key: created.key,
        scopes: created.scopes,
      }),
    );
  } finally {
    await db.close();
  }
}
