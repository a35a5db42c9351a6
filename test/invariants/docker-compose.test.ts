// docker-compose.yml without Docker (no images can be pulled here): it parses, the optional
// `embeddings` profile runs an OpenAI-compatible embedding server that nothing depends on, every
// svc container passes the EMBEDDING_* variables through, and embeddings.env is a configuration svc
// accepts, pointing at that service.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { loadConfig } from "../../src/config/load";

const root = path.join(import.meta.dir, "../..");
const compose = parse(readFileSync(path.join(root, "docker-compose.yml"), "utf8"), {
  merge: true,
}) as {
  services: Record<
    string,
    {
      profiles?: string[];
      image?: string;
      command?: string[];
      environment?: Record<string, string>;
      depends_on?: Record<string, unknown>;
    }
  >;
  volumes: Record<string, unknown>;
};
const envFile = Object.fromEntries(
  readFileSync(path.join(root, "embeddings.env"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
);

test("the embeddings service exists only in its profile, serves /v1 on port 80, and nothing depends on it", () => {
  const embeddings = compose.services.embeddings!;
  expect(embeddings.profiles).toEqual(["embeddings"]);
  expect(embeddings.image).toStartWith("ghcr.io/huggingface/text-embeddings-inference:cpu-");
  expect(embeddings.command).toContain("--model-id");
  expect(embeddings.command![embeddings.command!.indexOf("--port") + 1]).toBe("80");
  for (const [name, service] of Object.entries(compose.services)) {
    if (name === "embeddings") continue;
    expect(service.profiles, name).toBeUndefined();
    expect(Object.keys(service.depends_on ?? {}), name).not.toContain("embeddings");
  }
  expect(Object.keys(compose.volumes)).toContain("embeddingmodels");
});

test("serve, worker, beat and migrate pass every EMBEDDING_* variable through, empty by default", () => {
  const names = [
    "EMBEDDING_BASE_URL",
    "EMBEDDING_MODEL",
    "EMBEDDING_DIMENSIONS",
    "EMBEDDING_PROVIDER_API_KEY",
    "EMBEDDING_PREVIOUS_MODEL",
    "EMBEDDING_PREVIOUS_DIMENSIONS",
    "EMBEDDING_PREVIOUS_BASE_URL",
    "EMBEDDING_PREVIOUS_API_KEY",
  ];
  for (const service of ["serve", "worker", "beat", "migrate"]) {
    const env = compose.services[service]!.environment!;
    for (const name of names) expect(env[name], `${service} ${name}`).toBe(`\${${name}:-}`);
  }
});

test("embeddings.env switches the profile on and is a configuration svc accepts, aimed at the embeddings service", () => {
  expect(envFile.COMPOSE_PROFILES).toBe("embeddings");
  const url = new URL(envFile.EMBEDDING_BASE_URL!);
  expect(url.hostname).toBe("embeddings");
  expect(url.port || "80").toBe("80");
  expect(url.pathname).toBe("/v1");
  const config = loadConfig({
    DATABASE_URL: "postgres://svc:svc@postgres:5432/svc",
    VALKEY_URL: "redis://valkey:6379",
    ...envFile,
  });
  expect(config.EMBEDDING_DIMENSIONS).toBe(384);
  expect(config.EMBEDDING_MODEL).toBe("BAAI/bge-small-en-v1.5");
  expect(config.EMBEDDING_PROVIDER_API_KEY).toBeUndefined();
});
