// Parses the environment once at boot; an invalid value names its variable and the rule it breaks
// (never a secret's value) and stops the process.
import { Value } from "@sinclair/typebox/value";
import { ownValue } from "../lib/own-key";
import { describeSchema } from "../lib/validation/describe-schema";
import { embeddingModelProblems } from "./embedding-model";
import { shownValue } from "./redact";
import { ConfigSchema, type Config } from "./schema";

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
  }
}

const BOOLEAN_WORDS: Record<string, boolean> = {
  true: true,
  "1": true,
  yes: true,
  on: true,
  false: false,
  "0": false,
  no: false,
  off: false,
};

/**
 * Turns raw strings into the schema's types; unknown variables are ignored, empty strings mean
 * unset.
 */
function coerce(env: Record<string, string | undefined>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(ConfigSchema.properties)) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === "") continue;
    const value = raw.trim();
    const kind = (schema as { type?: string }).type;
    if (kind === "boolean") out[name] = ownValue(BOOLEAN_WORDS, value.toLowerCase()) ?? value;
    else if (kind === "integer" || kind === "number")
      out[name] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    else out[name] = value;
  }
  return out;
}

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Config> = {},
): Config {
  const candidate = Value.Default(ConfigSchema, { ...coerce(env), ...overrides }) as Record<
    string,
    unknown
  >;
  const failing = new Set(
    [...Value.Errors(ConfigSchema, candidate)].map((e) => e.path.replace(/^\//, "").split("/")[0]!),
  );
  // Name and rule, in words from the schema; the value only when it is not a secret (see
  // redact.ts).
  const problems = [...failing].map((name) => {
    const schema = ownValue<Record<string, unknown>>(ConfigSchema.properties, name);
    const rule = schema ? `must be ${describeSchema(schema)}` : "is not a known setting";
    return `${name} ${rule}${shownValue(name, env[name] ?? candidate[name])}`;
  });
  if (problems.length === 0)
    problems.push(
      ...embeddingModelProblems(
        candidate,
        "EMBEDDING_DIMENSIONS" in { ...coerce(env), ...overrides },
      ),
    );
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(candidate) as Config;
}
