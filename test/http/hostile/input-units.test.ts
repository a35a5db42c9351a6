// Hostile inputs (issue 23, item 9) below the HTTP layer: years 1-99 are literal in query text, the
// SSRF policy refuses IPv4-compatible IPv6 (::/96), one huge CSV cell is refused without parsing
// it, and a statement timeout answers 503 like recall, never 500 (GET /v1/graph/data on
// PostgreSQL).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseTimeExpression } from "../../../src/domain/recall/time-expressions";
import { toAppError } from "../../../src/http/error-handler";
import { createAddressPolicy } from "../../../src/lib/fetch/address-policy";
import { CSV_MAX_ROW_CHARS, CsvRowStream } from "../../../src/domain/ingest/formats/loaders/csv";
import { LoaderError } from "../../../src/domain/ingest/formats/loader";
import { createLogger } from "../../../src/observability/log";
import { show, testApp, type TestApp } from "../../harness/app";

const NOW = new Date("2026-06-15T12:00:00Z");

test("a year below 100 in query text is that year, not 1900 + it; past 9999 is not a time", () => {
  expect(
    parseTimeExpression("what happened after 0001-01-01", NOW).window?.from?.toISOString(),
  ).toBe("0001-01-02T00:00:00.000Z");
  expect(parseTimeExpression("before 0050-03-01", NOW).window?.to?.toISOString()).toBe(
    "0050-03-01T00:00:00.000Z",
  );
  expect(parseTimeExpression("what happened after 9999-12-31", NOW).window).toBeNull();
  expect(parseTimeExpression("what happened on 9999-12-30", NOW).window?.from?.toISOString()).toBe(
    "9999-12-30T00:00:00.000Z",
  );
});

test("the SSRF policy refuses IPv4-compatible IPv6 in every spelling", () => {
  const policy = createAddressPolicy(undefined);
  for (const address of [
    "::127.0.0.1",
    "::7f00:1",
    "::169.254.169.254",
    "::a9fe:a9fe",
    "::8.8.8.8",
    "0:0:0:0:0:0:7f00:1",
  ]) {
    expect(policy.check(address), address).toMatchObject({ allowed: false });
  }
  expect(policy.check("2001:4860:4860::8888")).toEqual({ allowed: true });
  expect(policy.check("8.8.8.8")).toEqual({ allowed: true });
});

describe("CSV rows", () => {
  test("a 20 MB single cell is refused as too large, whether it streams in pieces or arrives whole", () => {
    const cell = "x".repeat(20 * 1024 * 1024);
    const streamed = new CsvRowStream(undefined);
    streamed.push("a,b\n");
    let refused: unknown = null;
    try {
      for (let i = 0; i < cell.length; i += 65536)
        streamed.push(`${i === 0 ? '"' : ""}${cell.slice(i, i + 65536)}`);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(LoaderError);
    expect((refused as LoaderError).reason).toBe("too-large");
    expect(() => new CsvRowStream(undefined).push(`a,b\n"${cell}",1\nc,d\n`)).toThrow(
      `longer than ${CSV_MAX_ROW_CHARS}`,
    );
  });

  test("rows within the bound parse as before", () => {
    const rows = new CsvRowStream(undefined);
    const big = "y".repeat(CSV_MAX_ROW_CHARS - 10);
    expect([...rows.push(`a,b\n"${big}",1\n`), ...rows.end()]).toEqual([
      ["a", "b"],
      [big, "1"],
    ]);
  });
});

test("a statement timeout anywhere is a 503 problem", () => {
  const error = Object.assign(new Error("canceling statement due to statement timeout"), {
    code: "57014",
  });
  expect(toAppError("UNKNOWN", error, createLogger("fatal"), "req_x").status).toBe(503);
});

describe("GET /v1/graph/data under a statement timeout (PostgreSQL)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ DATABASE_STATEMENT_TIMEOUT_MS: 300 });
  });
  afterAll(() => t.close());

  test("answers 503 like recall, not 500", async () => {
    const tenant = await t.tenant("graph-timeout");
    const locker = await t.owner.reserve();
    try {
      await locker`BEGIN`;
      await locker`LOCK TABLE memos, edges IN ACCESS EXCLUSIVE MODE`;
      const r = await t.request("GET", "/v1/graph/data?agent_id=ag", { key: tenant.key });
      expect(r.status, show(r)).toBe(503);
      expect(r.body.type).toEndWith("/errors/service-unavailable");
    } finally {
      await locker`ROLLBACK`;
      locker.release();
    }
  });
});
