// LoCoMo's turns (../shared/bench-data/locomo-dev, read at run time, never copied) as the README
// there stores them: "[<session date>] <speaker>: <text>", every conversation's turns in order.
import { readFileSync } from "node:fs";
import path from "node:path";

const FILE = path.join(import.meta.dir, "../../../shared/bench-data/locomo-dev/locomo-dev.json");

type Turn = { speaker: string; text: string; blip_caption?: string };

export function locomoTurns(): string[] {
  const sets = JSON.parse(readFileSync(FILE, "utf8")) as Array<{
    conversation: Record<string, unknown>;
  }>;
  return sets.flatMap(({ conversation }) =>
    Object.keys(conversation)
      .filter((k) => /^session_\d+$/.test(k))
      .sort((a, b) => Number(a.split("_")[1]) - Number(b.split("_")[1]))
      .flatMap((k) =>
        (conversation[k] as Turn[]).map((t) => {
          const shares = t.blip_caption ? ` [shares ${t.blip_caption}]` : "";
          return `[${conversation[`${k}_date_time`]}] ${t.speaker}: ${t.text}${shares}`;
        }),
      ),
  );
}
