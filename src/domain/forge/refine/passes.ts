// Each pass name to the function that runs it. dedupe, infer and summarize land in the next commits;
// until then a request naming them is refused (422) and the default pass list skips them.
import type { PassContext } from "./context";
import type { PassName } from "./pass-names";
import { runPrune } from "./prune";
import { runReweight } from "./reweight";

export type RefinePass = (ctx: PassContext) => Promise<void>;

export const PASSES: Partial<Record<PassName, RefinePass>> = {
  reweight: runReweight,
  prune: runPrune,
};

export const isAvailable = (pass: PassName) => PASSES[pass] !== undefined;
