// Verb knowledge the rules need beyond wink's tags: which words are verbs when the lite model calls
// them nouns ("The script lives in …", "Alice and Bob use Vim"), copulas, participles of passives,
// and verbs that take a gerund and carry its meaning ("stopped using", "started working at").
import { RELATION_SYNONYMS } from "../../../graph/relation-synonyms";

const EXTRA_VERBS =
  "live work use run call depend manage report sit own lead prefer need want like love hate host store handle contain include support require maintain build write read send return import export deploy talk know meet join move play teach study speak visit attend leave";

export const VERB_LEMMAS = new Set([
  ...Object.keys(RELATION_SYNONYMS)
    .map((p) => p.split("_")[0]!)
    .filter((v) => v !== "be"),
  ...EXTRA_VERBS.split(" "),
]);

export const COPULAS = new Set([
  "be",
  "is",
  "are",
  "was",
  "were",
  "been",
  "being",
  "am",
  "'s",
  "'re",
  "'m",
]);
export const BECOME = new Set(["become", "remain", "stay"]);

/** "stopped using X" → use, ended; "started working at X" → work_at, begun. */
export const ASPECT_VERBS: Readonly<Record<string, "ended" | "begun" | "same">> = {
  stop: "ended",
  quit: "ended",
  cease: "ended",
  finish: "ended",
  start: "begun",
  begin: "begun",
  continue: "same",
  keep: "same",
  enjoy: "same",
  love: "same",
  like: "same",
  prefer: "same",
  hate: "same",
};

/** Past participles that are adjectives after "be" ("is located in", "is based in"). */
export const IRREGULAR_PARTICIPLES = new Set([
  "written",
  "built",
  "made",
  "run",
  "born",
  "known",
  "led",
  "held",
  "kept",
  "bought",
  "taught",
  "found",
  "given",
  "taken",
  "seen",
  "done",
  "drawn",
  "driven",
  "chosen",
  "grown",
  "shown",
  "thrown",
  "hidden",
  "begun",
  "brought",
  "sent",
  "set",
  "put",
  "paid",
  "sold",
  "told",
  "understood",
  "won",
]);
