// Prints docs/configuration.md from the one config schema: `bun run scripts/config-docs.ts >
// docs/configuration.md`.
import { ConfigSchema } from "../src/config/schema";

type Prop = {
  type?: string;
  default?: unknown;
  description?: string;
  anyOf?: Array<{ const?: unknown }>;
  minimum?: number;
  maximum?: number;
  pattern?: string;
};

function typeOf(p: Prop): string {
  if (p.anyOf) return p.anyOf.map((a) => `\`${String(a.const)}\``).join(" \\| ");
  const range =
    p.minimum !== undefined || p.maximum !== undefined
      ? ` (${p.minimum ?? "…"}–${p.maximum ?? "…"})`
      : "";
  return `${p.type ?? "string"}${range}`;
}

export function configurationMarkdown(): string {
  const required = new Set<string>(ConfigSchema.required ?? []);
  const rows = Object.entries(ConfigSchema.properties as Record<string, Prop>).map(([name, p]) => {
    const def =
      p.default === undefined
        ? required.has(name)
          ? "required"
          : "unset"
        : `\`${String(p.default)}\``;
    return `| \`${name}\` | ${typeOf(p)} | ${def} | ${(p.description ?? "").replace(/\|/g, "\\|")} |`;
  });
  return [
    "# Configuration",
    "",
    "Generated from `src/config/schema.ts` by `bun run scripts/config-docs.ts` (a test keeps it current).",
    "Every variable is read once at boot; an invalid value stops the process with a message naming it.",
    "Booleans accept true/false/1/0/yes/no/on/off; empty values count as unset.",
    "",
    "| Variable | Type | Default | Meaning |",
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

if (import.meta.main) process.stdout.write(configurationMarkdown());
