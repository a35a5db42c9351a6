// The one owner of a recall transaction's settings: its statement timeout and which plans its
// queries use.
import { limitRecallTransaction, restoreCustomPlans } from "../../../data/queries/recall/common";
import type { Tx } from "../../../data/pools";
import type { RecallDeps, RecallPlan } from "./types";

/**
 * Generic plans when the first statement fixes its own shape (RecallStrategy.genericPlans: a pinned
 * LEXICAL, and AUTO, whose LEXICAL runs first); custom plans for everything else, whose best path
 * depends on the arguments. VECTOR sets and restores its own (recall-vector.ts).
 */
export function openRecallTransaction(tx: Tx, deps: RecallDeps, plan: RecallPlan): void {
  const generic = plan.auto ? true : !plan.fusion && plan.strategy.genericPlans === true;
  limitRecallTransaction(tx, deps.config.RECALL_TIMEOUT_MS, generic ? "generic" : "custom");
}

/** After AUTO's LEXICAL: the other retrievers' queries are planned for their arguments. */
export function afterFixedShapes(tx: Tx): void {
  restoreCustomPlans(tx);
}
