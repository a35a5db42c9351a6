// Parses the environment once at boot; an invalid value names its variable and stops the process.
import { Value } from "@sinclair/typebox/value";
import { ConfigSchema, type Config } from "./schema";

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
  }
}

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, "1": true, yes: true, on: true, false: false, "0": false, no: false, off: false };

/** Turns raw strings into the schema's types; unknown variables are ignored, empty strings mean unset. */
function coerce(env: Record<string, string | undefined>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(ConfigSchema.properties)) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === "") continue;
    const value = raw.trim();
    const kind = (schema as { type?: string }).type;
    if (kind === "boolean") out[name] = BOOLEAN_WORDS[value.toLowerCase()] ?? value;
    else if (kind === "integer" || kind === "number") out[name] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    else out[name] = value;
  }
  return out;
}

export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const candidate = Value.Default(ConfigSchema, { ...coerce(env), ...overrides }) as Record<string, unknown>;
  const problems = [...Value.Errors(ConfigSchema, candidate)].map((e) => {
    const name = e.path.replace(/^\//, "");
    return `${name}: ${e.message} (got ${JSON.stringify(env[name] ?? candidate[name])})`;
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(candidate) as Config;
}
