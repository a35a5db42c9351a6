// One path for every decision (issue 23, items 5 and 6): a request without a valid Host is a 400
// problem on every route, a short Host neither hides a route behind /docs/ nor breaks routing, and
// no error ever answers with Bun's development page; on a real listener, in both database modes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Deps } from "../../../src/operations/deps";
import { listenHttp } from "../../../src/http/listen";
import { createLogger } from "../../../src/observability/log";
import { testApp, type Tenant } from "../../harness/app";
import { embeddedApp } from "../../harness/embedded-app";
import { listenApp, rawRequest } from "../../harness/raw-http";

const get = (path: string, head: string) =>
  `GET ${path} HTTP/1.1\r\n${head}Connection: close\r\n\r\n`;

const MODES = [
  [
    "PostgreSQL",
    async () => {
      const t = await testApp();
      return { deps: t.deps, tenant: () => t.tenant("target"), close: t.close };
    },
  ],
  [
    "embedded",
    async () => {
      const e = await embeddedApp("target");
      return { deps: e.deps, tenant: () => e.tenant(`target-${Date.now()}`), close: e.close };
    },
  ],
] as const;

for (const [mode, open] of MODES) {
  describe(`request target (${mode})`, () => {
    let deps: Deps;
    let tenant: Tenant;
    let server: ReturnType<typeof listenApp>;
    let close: () => Promise<void>;
    beforeAll(async () => {
      const opened = await open();
      ({ deps, close } = opened);
      tenant = await opened.tenant();
      server = listenApp(deps);
    });
    afterAll(async () => {
      server.stop(true);
      await close();
    });

    const expectHostProblem = (r: { status: number; headers: string; body: string }) => {
      expect(r.status, r.body).toBe(400);
      expect(r.headers.toLowerCase()).toContain("content-type: application/problem+json");
      const problem = JSON.parse(r.body);
      expect(problem.type).toEndWith("/errors/malformed-request");
      expect(problem.detail).toContain("Host");
      expect(r.body).not.toContain(process.cwd());
    };

    test("HTTP/1.0 without Host is a 400 problem on public and authenticated routes", async () => {
      for (const path of ["/v1/health", "/v1/memories", "/docs/v1/memories", "/nope"]) {
        expectHostProblem(
          await rawRequest(
            server.port!,
            `GET ${path} HTTP/1.0\r\nAuthorization: Bearer ${tenant.key}\r\n\r\n`,
          ),
        );
      }
    });

    test("an empty or malformed Host is a 400 problem", async () => {
      for (const host of ["", "a b", "a/b", "[::1"]) {
        expectHostProblem(
          await rawRequest(
            server.port!,
            get("/v1/memories", `Host: ${host}\r\nAuthorization: Bearer ${tenant.key}\r\n`),
          ),
        );
      }
    });

    test("a short Host routes the path it sends: /docs/v1/<route> stays a docs path, /v1/health is health", async () => {
      for (const host of ["a", "ab", "abc", "api:8080"]) {
        const hidden = await rawRequest(
          server.port!,
          get("/docs/v1/memories?agent_id=a", `Host: ${host}\r\n`),
        );
        expect(hidden.status, hidden.body).toBe(404);
        expect(hidden.body).not.toContain("API key");
        const health = await rawRequest(server.port!, get("/v1/health", `Host: ${host}\r\n`));
        expect(health.status, health.body).toBe(200);
        const keyless = await rawRequest(server.port!, get("/v1/api-keys", `Host: ${host}\r\n`));
        expect(keyless.status, keyless.body).toBe(401);
        const listed = await rawRequest(
          server.port!,
          get("/v1/api-keys", `Host: ${host}\r\nAuthorization: Bearer ${tenant.key}\r\n`),
        );
        expect(listed.status, listed.body).toBe(200);
        expect(JSON.parse(listed.body).items.length).toBeGreaterThan(0);
      }
    });
  });
}

test("an error escaping the fetch handler is a bare 500 problem, never Bun's development page", async () => {
  const config = { HOST: "127.0.0.1", PORT: 0 } as Deps["config"];
  const server = listenHttp(
    { config, log: createLogger("fatal") },
    {
      port: 0,
      fetch: () => {
        throw new Error("boom at /secret/path.ts:12");
      },
    },
  );
  try {
    const r = await rawRequest(server.port!, get("/v1/health", "Host: localhost\r\n"));
    expect(r.status).toBe(500);
    expect(r.headers.toLowerCase()).toContain("content-type: application/problem+json");
    expect(r.body).not.toContain("boom");
    expect(r.body).not.toContain("/secret/path.ts");
  } finally {
    server.stop(true);
  }
});
