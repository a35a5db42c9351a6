// Exports that finish and let go, for both database modes: only a key with the `export` scope may
// export (not `admin` alone), one export per tenant runs at a time (a second is a 409), and a
// client that stops reading is dropped after EXPORT_STALL_SECONDS, releasing the snapshot's
// connection for everyone else.
import { expect } from "bun:test";
import { withTenant } from "../../src/data/with-tenant";
import type { Tenant, TestApp } from "../harness/app";
import { eventually } from "../queue/wait";

/**
 * Enough rows (about 3.5 MB of export) that an unread export fills its buffer and waits for the
 * client.
 */
export async function seedBulk(app: TestApp, tenant: Tenant, rows = 3000): Promise<void> {
  await withTenant(
    app.deps.db,
    tenant.orgId,
    (tx) => tx`
    INSERT INTO memories (org_id, memory_id, version, agent_id, content, content_hash, memory_type, created_at)
    SELECT ${tenant.orgId}, 'mem_bulk' || lpad(g::text, 6, '0'), 1, 'bulk',
      'Bulk memory ' || g || ' ' || repeat('for the export that is never read ', 30), sha256(g::text::bytea), 'semantic', now()
    FROM generate_series(1, ${rows}::int) AS g`,
  );
}

/** The export's response, its body unread. */
const get = (app: TestApp, key: string) =>
  app.handle(
    new Request("http://localhost/v1/export", { headers: { authorization: `Bearer ${key}` } }),
  );

/** Reads a whole export; returns its last line's kind ("end" for a complete one). */
async function readAll(response: Response): Promise<string> {
  const text = await response.text();
  return /^\{"k":"([a-z_]+)"/.exec(text.trim().split("\n").at(-1)!)![1]!;
}

export async function exportNeedsExportScope(app: TestApp, tenant: Tenant): Promise<void> {
  const keyWith = async (scopes: string[]) => {
    const r = await app.request("POST", "/v1/api-keys", {
      key: tenant.key,
      body: { name: scopes.join(" "), scopes },
    });
    expect(r.status, r.text).toBe(201);
    return r.body.key as string;
  };
  const adminOnly = await app.request("GET", "/v1/export", { key: await keyWith(["admin"]) });
  expect(adminOnly.status, adminOnly.text.slice(0, 300)).toBe(403);
  expect(adminOnly.body.missing_scopes).toEqual(["export"]);
  const exporter = await get(app, await keyWith(["export"]));
  expect(exporter.status).toBe(200);
  expect(await readAll(exporter)).toBe("end");
}

/**
 * `other`: a tenant whose export must not wait (null in embedded mode, where one connection serves
 * all).
 */
export async function oneExportPerTenant(
  app: TestApp,
  tenant: Tenant,
  other: Tenant | null,
): Promise<void> {
  const first = await get(app, tenant.key);
  expect(first.status).toBe(200);
  const reader = first.body!.getReader();
  expect((await reader.read()).done).toBe(false);
  const second = await app.request("GET", "/v1/export", { key: tenant.key });
  expect(second.status, second.text.slice(0, 300)).toBe(409);
  expect(second.body.type).toEndWith("/errors/export-in-progress");
  expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0);
  if (other) {
    const theirs = await get(app, other.key);
    expect(theirs.status).toBe(200);
    expect(await readAll(theirs)).toBe("end");
  }
  await reader.cancel();
  const again = await eventually(async () => {
    const r = await get(app, tenant.key);
    if (r.status === 409) return null;
    return r;
  }, "the abandoned export to let go of the tenant");
  expect(again.status).toBe(200);
  expect(await readAll(again)).toBe("end");
}

/** The app runs with EXPORT_STALL_SECONDS: 1. */
export async function stalledExportLetsGo(
  app: TestApp,
  tenant: Tenant,
  other: Tenant,
): Promise<void> {
  const stalled = await get(app, tenant.key);
  expect(stalled.status).toBe(200);
  const reader = stalled.body!.getReader();
  expect((await reader.read()).done).toBe(false);
  // The client reads nothing more. While the export waits for it, a second export of the tenant is
  // a 409; once the export gives up on the client, the second one runs. (No fixed pause: on a busy
  // machine filling the buffer alone can outlast one.)
  const again = await eventually(
    async () => {
      const r = await get(app, tenant.key);
      if (r.status === 409) return null;
      return r;
    },
    "the stalled export to be dropped",
    60_000,
  );
  expect(again.status).toBe(200);
  let text = "";
  const outcome = await (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return "ended";
        text += new TextDecoder().decode(value);
      }
    } catch {
      return "errored";
    }
  })();
  expect(outcome).toBe("errored");
  expect(text).not.toContain('{"k":"end"');
  // The connection went back: the second export reads to its end, and another tenant reads and
  // writes (embedded mode has one connection).
  expect(await readAll(again)).toBe("end");
  const stored = await app.request("POST", "/v1/memories", {
    key: other.key,
    body: { agent_id: "a", content: "after the stall" },
  });
  expect(stored.status, stored.text).toBe(201);
}
