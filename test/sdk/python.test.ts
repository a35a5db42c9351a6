// The Python SDK's pytest suite (sdk/python/tests) against a real `svc serve` in each database
// mode, run with Debian's python3, httpx and pytest: pytest must exit 0 having run tests, none
// failed or skipped.
import { afterAll, describe, expect, test } from "bun:test";
import {
  createKey,
  findPython,
  runPytest,
  startServer,
  type Mode,
  type PythonServer,
} from "./python-server";

const python = findPython();

for (const mode of ["postgres", "embedded"] as Mode[]) {
  describe(`Python SDK, ${mode} database`, () => {
    let server: PythonServer | undefined;
    afterAll(async () => server?.stop());

    test("pytest sdk/python/tests passes against the real server", async () => {
      server = await startServer(mode);
      const key = await createKey(server, `python-sdk-${mode}`);
      const run = await runPytest(python, "sdk/python/tests", {
        SVC_URL: server.url,
        SVC_API_KEY: key,
      });
      expect(run.code, `${run.output}\n--- server log ---\n${server.log()}`).toBe(0);
      expect(run.passed).toBeGreaterThan(0);
      expect({ failed: run.failed, errors: run.errors, skipped: run.skipped }).toEqual({
        failed: 0,
        errors: 0,
        skipped: 0,
      });
    }, 420_000);
  });
}

test("the runner can fail: a pytest failure is a non-zero exit and a counted failure", async () => {
  const run = await runPytest(
    python,
    "sdk/python/tests/test_memories.py::test_store_recall_forget_round_trip",
    { SVC_URL: "http://127.0.0.1:9", SVC_API_KEY: "svc_sk_none" },
  );
  expect(run.code).not.toBe(0);
  expect(run.failed + run.errors).toBe(1);
  expect(run.passed).toBe(0);
}, 60_000);
