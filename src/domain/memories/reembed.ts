// svc.generate_embedding's work for one tenant: embed current versions stored without a vector,
// and, when the configured generation (provider, model, dimension) is not the one serving the
// tenant, build the new generation beside the old one and switch in one transaction once it is
// complete (docs/embeddings.md). Every batch commits whole (vectors and progress together) and the
// next table's key rejects repeats, so a worker killed at any point resumes where the last commit
// left off.
import type { Ports } from "../ports/ports";
import type { Database } from "../../data/pools";
import {
  clearTarget,
  countMissingNext,
  dominantGeneration,
  findMissingNext,
  insertGeneration,
  insertNext,
  lockGeneration,
  readGeneration,
  recountTarget,
  setTarget,
  switchToTarget,
} from "../../data/queries/memories/embedding-generations";
import { withTenant, withTenantRead } from "../../data/with-tenant";
import type { EmbeddingProvider } from "../../providers/embeddings/port";
import { BACKFILL_WALK_START, fillInPlace } from "./backfill-embeddings";
import type { Generation } from "./embedding-generations";

export type ReembedDeps = Pick<Ports, "db" | "embeddings" | "log">;

export type ReembedStep = {
  /** Vectors written (in place, or for the next generation). */
  embedded: number;
  /** Current versions still waiting for a vector of the configured generation. */
  remaining: number;
  /** Present while a re-embed runs or when it switched in this step. */
  reembed?: { from: Generation; to: Generation; done: number; total: number; switched: boolean };
};

/**
 * Versions stored after the last batch (with the old generation, in the last moments) do not hold
 * the switch back: they lose their old vector in the switch and the backfill right after gives them
 * a new one.
 */
const SWITCH_STRAGGLERS = 16;

const same = (a: Generation, b: Generation) => a.model === b.model && a.dims === b.dims;
const generationOf = (e: EmbeddingProvider): Generation => ({ model: e.model, dims: e.dimensions });

/**
 * Records the serving generation of a tenant seen for the first time; returns the target, if any.
 */
async function prepare(
  db: Database,
  orgId: string,
  configured: Generation,
): Promise<{ serving: Generation; target: Generation | null }> {
  return withTenant(db, orgId, async (tx) => {
    let row = await lockGeneration(tx);
    if (!row) {
      const found = await dominantGeneration(tx);
      if (!found || same(found, configured)) return { serving: configured, target: null };
      await insertGeneration(tx, orgId, found.model, found.dims);
      row = (await lockGeneration(tx))!;
    }
    const serving = { model: row.serving_model, dims: row.serving_dims };
    if (same(serving, configured)) {
      if (row.target_model !== null) await clearTarget(tx);
      return { serving, target: null };
    }
    if (row.target_model !== configured.model || row.target_dims !== configured.dims)
      await setTarget(tx, configured.model, configured.dims);
    await recountTarget(tx, configured.model, configured.dims);
    return { serving, target: configured };
  });
}

/** Embeds up to `limit` versions missing a next-generation vector; returns [written, found]. */
async function fillNext(
  db: Database,
  embedder: EmbeddingProvider,
  orgId: string,
  limit: number,
): Promise<[number, number]> {
  const rows = await withTenantRead(db, orgId, (tx) =>
    findMissingNext(tx, embedder.model, embedder.dimensions, limit),
  );
  if (rows.length === 0) return [0, 0];
  const { vectors } = await embedder.embed(
    rows.map((r) => r.content),
    { orgId, patient: true },
  );
  const written = await withTenant(db, orgId, (tx) =>
    insertNext(tx, orgId, rows, vectors, embedder.model, embedder.dimensions),
  );
  return [written, rows.length];
}

/** The switch, if the target is still the configured one and (almost) complete. */
async function trySwitch(db: Database, orgId: string, target: Generation): Promise<boolean> {
  return withTenant(db, orgId, async (tx) => {
    const row = await lockGeneration(tx);
    if (!row || row.target_model !== target.model || row.target_dims !== target.dims) return false;
    if ((await countMissingNext(tx, target.model, target.dims)) > SWITCH_STRAGGLERS) return false;
    await switchToTarget(tx, target.model, target.dims);
    return true;
  });
}

async function drainInPlace(
  deps: ReembedDeps,
  embedder: EmbeddingProvider,
  orgId: string,
  batch: number,
  maxBatches: number,
): Promise<{ embedded: number; more: boolean }> {
  let embedded = 0;
  let after = BACKFILL_WALK_START;
  for (let i = 0; i < maxBatches; i++) {
    const step = await fillInPlace(deps.db, embedder, orgId, batch, after);
    embedded += step.written;
    if (step.found < batch) return { embedded, more: false };
    after = step.next;
  }
  return { embedded, more: true };
}

/**
 * One bounded step for one tenant: at most `maxBatches` batches of `batch` versions. A provider
 * failure propagates, so the task is retried with backoff.
 */
export async function advanceEmbeddings(
  deps: ReembedDeps,
  orgId: string,
  batch: number,
  maxBatches: number,
): Promise<ReembedStep> {
  const configuredEmbedder = deps.embeddings.configured;
  const configured = generationOf(configuredEmbedder);
  const { serving, target } = await prepare(deps.db, orgId, configured);
  if (!target) {
    const { embedded, more } = await drainInPlace(
      deps,
      configuredEmbedder,
      orgId,
      batch,
      maxBatches,
    );
    return { embedded, remaining: more ? batch : 0 };
  }

  // The old generation keeps serving: versions stored without a vector get one of it, when its
  // provider is here.
  const servingEmbedder = deps.embeddings.embedderFor(serving.model, serving.dims);
  let embedded = servingEmbedder
    ? (await drainInPlace(deps, servingEmbedder, orgId, batch, Math.max(1, maxBatches >> 2)))
        .embedded
    : 0;
  let complete = false;
  for (let i = 0; i < maxBatches; i++) {
    const [written, found] = await fillNext(deps.db, configuredEmbedder, orgId, batch);
    embedded += written;
    if (found < batch) {
      complete = true;
      break;
    }
  }
  const progress = await withTenantRead(deps.db, orgId, readGeneration);
  const done = progress?.target_done ?? 0;
  const total = progress?.target_total ?? 0;
  if (complete && (await trySwitch(deps.db, orgId, target))) {
    deps.embeddings.forget(orgId);
    deps.log.info({
      msg: "embedding generation switched",
      org_id: orgId,
      from: serving,
      to: target,
      vectors: total,
    });
    const after = await drainInPlace(deps, configuredEmbedder, orgId, batch, maxBatches);
    return {
      embedded: embedded + after.embedded,
      remaining: after.more ? batch : 0,
      reembed: { from: serving, to: target, done: total, total, switched: true },
    };
  }
  return {
    embedded,
    remaining: Math.max(1, total - done),
    reembed: { from: serving, to: target, done, total, switched: false },
  };
}
