// Each pass name to the function that runs it.
import type { PassContext } from "./context";
import { runDedupe } from "./dedupe";
import { runInfer } from "./infer";
import type { PassName } from "./pass-names";
import { runPrune } from "./prune";
import { runReweight } from "./reweight";
import { runSummarize } from "./summarize";

export type RefinePass = (ctx: PassContext) => Promise<void>;

export const PASSES: Partial<Record<PassName, RefinePass>> = {
  dedupe: runDedupe,
  infer: runInfer,
  summarize: runSummarize,
  reweight: runReweight,
  prune: runPrune,
};

export const isAvailable = (pass: PassName) => PASSES[pass] !== undefined;
