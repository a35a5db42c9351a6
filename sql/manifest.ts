// The migrations, in order, embedded as text so the compiled binary carries them.
// test/invariants/migrations.test.ts checks this list matches the directory.
// Append-only: a new migration takes a number above every shipped one (the last line of
// test/fixtures/shipped-migrations.txt), never a gap inside an older band, and a shipped file is never
// edited, renamed or removed. A database created earlier applies only the new files, after all of its
// own, so an inserted number would run in another order there than in a fresh database.
// test/invariants/schema-upgrade.test.ts checks both (docs/architecture.md, Migrations).
import m0001 from "./0001_roles_and_extensions.sql" with { type: "text" };
import m0002 from "./0002_orgs_and_api_keys.sql" with { type: "text" };
import m0003 from "./0003_audit_pending.sql" with { type: "text" };
import m0004 from "./0004_worker_heartbeats.sql" with { type: "text" };
import m0005 from "./0005_api_key_scopes.sql" with { type: "text" };
import m0006 from "./0006_idempotency_keys.sql" with { type: "text" };
import m0007 from "./0007_serving_login.sql" with { type: "text" };
import m0100 from "./0100_memories.sql" with { type: "text" };
import m0101 from "./0101_memories_decay.sql" with { type: "text" };
import m0102 from "./0102_memories_fillfactor.sql" with { type: "text" };
import m0110 from "./0110_recall_indexes.sql" with { type: "text" };
import m0120 from "./0120_memories_occurred_at.sql" with { type: "text" };
import m0125 from "./0125_api_key_changes_notify.sql" with { type: "text" };
import m0130 from "./0130_memories_halfvec_index.sql" with { type: "text" };
import m0131 from "./0131_embedding_generations.sql" with { type: "text" };
import m0132 from "./0132_memories_vector_index_params.sql" with { type: "text" };
import m0133 from "./0133_memory_access.sql" with { type: "text" };
import m0134 from "./0134_memories_vector_backlog.sql" with { type: "text" };
import m0135 from "./0135_memory_lexemes.sql" with { type: "text" };
import m0200 from "./0200_audit_log.sql" with { type: "text" };
import m0201 from "./0201_usage_and_budgets.sql" with { type: "text" };
import m0202 from "./0202_sessions_and_conversations.sql" with { type: "text" };
import m0203 from "./0203_forget_certificates.sql" with { type: "text" };
import m0204 from "./0204_audit_drain_scan.sql" with { type: "text" };
import m0205 from "./0205_conversation_turns_memory_index.sql" with { type: "text" };
import m0300 from "./0300_jobs.sql" with { type: "text" };
import m0400 from "./0400_graph.sql" with { type: "text" };
import m0401 from "./0401_graph_distill.sql" with { type: "text" };
import m0402 from "./0402_graph_heaviest_edges.sql" with { type: "text" };
import m0403 from "./0403_memos_name_index.sql" with { type: "text" };
import m0410 from "./0410_ingest.sql" with { type: "text" };
import m0420 from "./0420_refine.sql" with { type: "text" };
import m0430 from "./0430_memory_terms.sql" with { type: "text" };
import m0440 from "./0440_memory_code_tokens.sql" with { type: "text" };
import m0441 from "./0441_memories_agent_occurred.sql" with { type: "text" };
import m0442 from "./0442_edge_lexemes.sql" with { type: "text" };
import m0450 from "./0450_export_scope.sql" with { type: "text" };
import m0455 from "./0455_budget_ceilings.sql" with { type: "text" };
import m0460 from "./0460_memories_listing.sql" with { type: "text" };
import m0470 from "./0470_memory_lexemes_delete_by_key.sql" with { type: "text" };
import m0500 from "./0500_postings_per_statement.sql" with { type: "text" };
import m0501 from "./0501_idempotency_tombstones.sql" with { type: "text" };
import m0520 from "./0520_webhooks.sql" with { type: "text" };
import m0530 from "./0530_subject_erasure.sql" with { type: "text" };
import m0560 from "./0560_memories_episode_order.sql" with { type: "text" };
import m0565 from "./0565_statistics_refresh.sql" with { type: "text" };
import m0570 from "./0570_memory_lexemes_drop.sql" with { type: "text" };
import m0600 from "./0600_postings_by_memory.sql" with { type: "text" };
import m0601 from "./0601_memories_expiring_per_org.sql" with { type: "text" };
import m0610 from "./0610_statistics_refresh_waits.sql" with { type: "text" };
import m0660 from "./0660_memories_stale_embeddings.sql" with { type: "text" };
import m0670 from "./0670_memories_agent_current_walk.sql" with { type: "text" };

export const MIGRATIONS: ReadonlyArray<{ name: string; sql: string }> = [
  { name: "0001_roles_and_extensions.sql", sql: m0001 },
  { name: "0002_orgs_and_api_keys.sql", sql: m0002 },
  { name: "0003_audit_pending.sql", sql: m0003 },
  { name: "0004_worker_heartbeats.sql", sql: m0004 },
  { name: "0005_api_key_scopes.sql", sql: m0005 },
  { name: "0006_idempotency_keys.sql", sql: m0006 },
  { name: "0007_serving_login.sql", sql: m0007 },
  { name: "0100_memories.sql", sql: m0100 },
  { name: "0101_memories_decay.sql", sql: m0101 },
  { name: "0102_memories_fillfactor.sql", sql: m0102 },
  { name: "0110_recall_indexes.sql", sql: m0110 },
  { name: "0120_memories_occurred_at.sql", sql: m0120 },
  { name: "0125_api_key_changes_notify.sql", sql: m0125 },
  { name: "0130_memories_halfvec_index.sql", sql: m0130 },
  { name: "0131_embedding_generations.sql", sql: m0131 },
  { name: "0132_memories_vector_index_params.sql", sql: m0132 },
  { name: "0133_memory_access.sql", sql: m0133 },
  { name: "0134_memories_vector_backlog.sql", sql: m0134 },
  { name: "0135_memory_lexemes.sql", sql: m0135 },
  { name: "0200_audit_log.sql", sql: m0200 },
  { name: "0201_usage_and_budgets.sql", sql: m0201 },
  { name: "0202_sessions_and_conversations.sql", sql: m0202 },
  { name: "0203_forget_certificates.sql", sql: m0203 },
  { name: "0204_audit_drain_scan.sql", sql: m0204 },
  { name: "0205_conversation_turns_memory_index.sql", sql: m0205 },
  { name: "0300_jobs.sql", sql: m0300 },
  { name: "0400_graph.sql", sql: m0400 },
  { name: "0401_graph_distill.sql", sql: m0401 },
  { name: "0402_graph_heaviest_edges.sql", sql: m0402 },
  { name: "0403_memos_name_index.sql", sql: m0403 },
  { name: "0410_ingest.sql", sql: m0410 },
  { name: "0420_refine.sql", sql: m0420 },
  { name: "0430_memory_terms.sql", sql: m0430 },
  { name: "0440_memory_code_tokens.sql", sql: m0440 },
  { name: "0441_memories_agent_occurred.sql", sql: m0441 },
  { name: "0442_edge_lexemes.sql", sql: m0442 },
  { name: "0450_export_scope.sql", sql: m0450 },
  { name: "0455_budget_ceilings.sql", sql: m0455 },
  { name: "0460_memories_listing.sql", sql: m0460 },
  { name: "0470_memory_lexemes_delete_by_key.sql", sql: m0470 },
  { name: "0500_postings_per_statement.sql", sql: m0500 },
  { name: "0501_idempotency_tombstones.sql", sql: m0501 },
  { name: "0520_webhooks.sql", sql: m0520 },
  { name: "0530_subject_erasure.sql", sql: m0530 },
  { name: "0560_memories_episode_order.sql", sql: m0560 },
  { name: "0565_statistics_refresh.sql", sql: m0565 },
  { name: "0570_memory_lexemes_drop.sql", sql: m0570 },
  { name: "0600_postings_by_memory.sql", sql: m0600 },
  { name: "0601_memories_expiring_per_org.sql", sql: m0601 },
  { name: "0610_statistics_refresh_waits.sql", sql: m0610 },
  { name: "0660_memories_stale_embeddings.sql", sql: m0660 },
  { name: "0670_memories_agent_current_walk.sql", sql: m0670 },
];
