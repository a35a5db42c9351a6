// OTEL_ENABLED: each request becomes a server span exported over OTLP/HTTP to a collector (here a
// fake collector this test starts), named after the matched route, with status and request id.
import { expect, test } from "bun:test";
import { testApp } from "../harness/app";

test("requests are exported as OTLP spans named after their route", async () => {
  const received: any[] = [];
  const collector = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      if (new URL(req.url).pathname === "/v1/traces") received.push(await req.json());
      return new Response("{}", { headers: { "content-type": "application/json" } });
    },
  });
  const t = await testApp({
    OTEL_ENABLED: true,
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}`,
    OTEL_SERVICE_NAME: "svc-under-test",
  });
  try {
    const tenant = await t.tenant("otel");
    await t.request("GET", "/v1/api-keys", {
      key: tenant.key,
      headers: { "x-request-id": "otel-req-1" },
    });
    await t.request("GET", "/v1/nowhere", { key: tenant.key });
  } finally {
    await t.close();
    collector.stop(true);
  }
  const resourceSpans = received.flatMap((b) => b.resourceSpans);
  const serviceName = resourceSpans[0].resource.attributes.find(
    (a: any) => a.key === "service.name",
  ).value.stringValue;
  expect(serviceName).toBe("svc-under-test");
  const spans = resourceSpans.flatMap((r: any) => r.scopeSpans.flatMap((s: any) => s.spans));
  const attr = (span: any, key: string) => {
    const v = span.attributes.find((a: any) => a.key === key)?.value;
    return v?.stringValue ?? v?.intValue;
  };
  const listed = spans.find((s: any) => s.name === "GET /v1/api-keys");
  expect(listed).toBeDefined();
  expect(Number(attr(listed, "http.response.status_code"))).toBe(200);
  expect(attr(listed, "svc.request_id")).toBe("otel-req-1");
  expect(
    spans.some(
      (s: any) =>
        s.name === "GET unmatched" && Number(attr(s, "http.response.status_code")) === 404,
    ),
  ).toBe(true);
});

test("tracing is off by default", async () => {
  const t = await testApp();
  try {
    expect(t.deps.tracing).toBeNull();
  } finally {
    await t.close();
  }
});
