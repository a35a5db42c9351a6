// Stores a document's chunks as memories, a batch per transaction, exactly once: the source row is
// locked, chunks already linked (by an earlier, killed run) are skipped, and the memories, their
// chunk links and the job's progress commit together. A batch is embedded before its transaction
// opens.
import type { Ports } from "../../ports/ports";
import { findIngestJob } from "../../../data/queries/ingest/jobs";
import {
  countStoredChunks,
  insertChunkLinks,
  lockSource,
} from "../../../data/queries/ingest/sources";
import { withTenant } from "../../../data/with-tenant";
import type { Chunk } from "../formats/loader";
import type { Actor } from "../../actor";
import { AppError } from "../../../lib/errors";
import { insertPreparedMemories, prepareMemories } from "../../memories/prepare";
import type { MemoryInput } from "../../memories/types";
import { IngestFailure } from "../payload";
import type { Heartbeat } from "../../jobs/heartbeat";

const BATCH = 64;

/**
 * Another delivery of the same job (or a newer job) owns the document now: stop quietly, settle
 * nothing.
 */
export class LostOwnership extends Error {}

export type ChunkWriterSetup = {
  deps: Pick<Ports, "db" | "config" | "embeddings" | "log" | "queue">;
  actor: Actor;
  jobId: string;
  sourceId: string;
  agentId: string;
  datasetId: string | null;
  /** Metadata every chunk's memory carries (source, job, loader). */
  baseMetadata: Record<string, unknown>;
  heartbeat: Heartbeat;
  /** Chunks below this index were stored by an earlier run. */
  resumeAt: number;
};

export class ChunkWriter {
  private pending: Array<{ index: number; chunk: Chunk }> = [];
  private storedNow = 0;

  constructor(private readonly setup: ChunkWriterSetup) {
    this.storedNow = setup.resumeAt;
  }

  get stored(): number {
    return this.storedNow;
  }

  async add(index: number, chunk: Chunk): Promise<void> {
    if (index < this.setup.resumeAt) return;
    this.pending.push({ index, chunk });
    if (this.pending.length >= BATCH) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const { deps, actor, agentId, datasetId, baseMetadata } = this.setup;
    const inputs: MemoryInput[] = batch.map(({ index, chunk }) => ({
      agent_id: agentId,
      content: chunk.text,
      dataset_id: datasetId ?? undefined,
      metadata: {
        ...baseMetadata,
        chunk_index: index,
        position: chunk.position,
        ...chunk.metadata,
      },
    }));
    const prepared = await prepareMemories(deps, actor, inputs, "chunks/").catch(asFailure);
    await withTenant(deps.db, actor.orgId, async (tx) => {
      const source = await lockSource(tx, this.setup.sourceId);
      const job = await findIngestJob(tx, this.setup.jobId, true);
      if (!source || source.job_id !== this.setup.jobId || job?.state !== "running")
        throw new LostOwnership(`job ${this.setup.jobId} no longer owns its document`);
      const already = await countStoredChunks(tx, this.setup.sourceId);
      const fresh = batch.flatMap((item, i) =>
        item.index >= already ? [{ ...item, prepared: prepared[i]! }] : [],
      );
      if (fresh.length > 0 && fresh[0]!.index !== already)
        throw new Error(
          `chunk ${fresh[0]!.index} would leave a gap after ${already} stored chunks`,
        );
      const records = await insertPreparedMemories(
        tx,
        actor,
        fresh.map((f) => f.prepared),
        "chunks/",
      ).catch(asFailure);
      await insertChunkLinks(
        tx,
        actor.orgId,
        this.setup.sourceId,
        fresh.map((f, i) => ({ chunk_index: f.index, memory_id: records[i]!.memory_id })),
      );
      this.storedNow = already + fresh.length;
      this.setup.heartbeat.progress = {
        ...this.setup.heartbeat.progress,
        chunks_stored: this.storedNow,
      };
      await this.setup.heartbeat.beatIn(tx);
    });
  }
}

/** Budgets and rejected chunks end the job with a reason instead of retrying it. */
function asFailure(error: unknown): never {
  if (error instanceof AppError && error.slug === "budget-exceeded")
    throw new IngestFailure("budget-exceeded", error.detail);
  if (error instanceof AppError && error.slug === "validation-failed") {
    if (error.detail.includes("dataset_id"))
      throw new IngestFailure(
        "dataset-deleted",
        "the dataset was deleted while the document was being ingested",
      );
    throw new IngestFailure("too-large", `a chunk could not be stored: ${error.detail}`);
  }
  throw error;
}
