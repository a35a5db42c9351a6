// The five refine passes, in the only order they ever run (the spec's): dedupe, infer, summarize,
// reweight, prune.
export const PASS_ORDER = ["dedupe", "infer", "summarize", "reweight", "prune"] as const;

export type PassName = (typeof PASS_ORDER)[number];

export const isPassName = (value: string): value is PassName =>
  (PASS_ORDER as readonly string[]).includes(value);

/** The requested passes (any order, possibly repeated) in run order. */
export function inRunOrder(passes: Iterable<string>): PassName[] {
  const wanted = new Set(passes);
  return PASS_ORDER.filter((p) => wanted.has(p));
}

/** REFINE_DEFAULT_PASSES ("dedupe,reweight,prune") as a run list. */
export const defaultPasses = (setting: string): PassName[] => inRunOrder(setting.split(","));
