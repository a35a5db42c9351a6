// Boot-time keys: SVC_API_KEY becomes the default org's bootstrap key; a development key is seeded
// only when no key exists at all and the server is bound to loopback. Off loopback, a live
// development key stops the boot: the spec says it must be changed on any non-local deploy.
import { hashKey } from "./format";
import { createKey } from "./manage";
import { findKeyByHash, hasLiveKeyOfKind } from "../../data/queries/keys/api-keys";
import { listOrgIds, upsertOrg } from "../../data/queries/orgs";
import type { Database } from "../../data/pools";
import { withSystem } from "../../data/with-system";
import { withKeyLookup, withTenant } from "../../data/with-tenant";
import { systemActor } from "../actor";
import { newId } from "../../lib/ids";
import { bytesToHex } from "@noble/hashes/utils.js";

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host.startsWith("127.");
}

export async function ensureOrg(db: Database, name: string): Promise<string> {
  return (await withSystem(db, (tx) => upsertOrg(tx, newId("org"), name))).id;
}

async function anyKeyExists(db: Database): Promise<boolean> {
  const orgIds = await withSystem(db, listOrgIds);
  for (const orgId of orgIds) {
    const found = await withTenant(
      db,
      orgId,
      async (tx) => (await tx`SELECT 1 FROM api_keys LIMIT 1`).length > 0,
    );
    if (found) return true;
  }
  return false;
}

/**
 * Every org, not only the current default: an earlier boot may have seeded it under another
 * SVC_DEFAULT_ORG.
 */
async function liveDevelopmentKeyExists(db: Database): Promise<boolean> {
  for (const orgId of await withSystem(db, listOrgIds)) {
    if (await withTenant(db, orgId, (tx) => hasLiveKeyOfKind(tx, "development"))) return true;
  }
  return false;
}

export type BootstrapOutcome = { developmentKey?: string; bootstrapOrgId?: string };

export async function ensureBootKeys(
  db: Database,
  options: { bootstrapKey?: string; defaultOrg: string; host: string },
): Promise<BootstrapOutcome> {
  const outcome: BootstrapOutcome = {};
  if (options.bootstrapKey) {
    const orgId = await ensureOrg(db, options.defaultOrg);
    outcome.bootstrapOrgId = orgId;
    const hash = hashKey(options.bootstrapKey);
    const existing = await withKeyLookup(db, bytesToHex(hash), (tx) => findKeyByHash(tx, hash));
    if (!existing)
      await createKey(
        db,
        systemActor(orgId),
        "bootstrap (SVC_API_KEY)",
        "bootstrap",
        options.bootstrapKey,
      );
  }
  if (!isLoopback(options.host)) {
    if (await liveDevelopmentKeyExists(db)) {
      throw new Error(
        "a development API key is still active and HOST is not loopback: revoke it (DELETE /v1/api-keys/{key_id}) or bind to 127.0.0.1",
      );
    }
    return outcome;
  }
  if (!options.bootstrapKey && !(await anyKeyExists(db))) {
    const orgId = await ensureOrg(db, options.defaultOrg);
    outcome.developmentKey = (
      await createKey(db, systemActor(orgId), "development (seeded on loopback)", "development")
    ).key;
  }
  return outcome;
}
