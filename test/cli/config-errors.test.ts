// Issue 15 item 4: a configuration error names the variable and the rule it breaks, never a
// secret's value. Secrets are recognised by name (*_KEY, *_SECRET, *_PASSWORD, *_TOKEN), so
// variables added later are covered, and the password inside any URL is masked.
import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config/load";
import { isSecretName, shownValue, withoutUrlPassword } from "../../src/config/redact";
import { runSvc, serviceEnv } from "../harness/process";

const SECRETS = {
  SVC_API_KEY: "svc_sk_tooShortButSecret1",
  SUPERADMIN_API_KEY: "sa-leak-me",
  FORGET_SIGNING_KEY: "c2VjcmV0LXNpZ25pbmctc2VlZA==",
  DATABASE_URL: "mysql://svc:hunter2-db-password@db:3306/svc",
  DATABASE_READ_URL: "pg://reader:hunter3-read-password@replica:notaport/svc",
};
const LEAKS = [
  "tooShortButSecret1",
  "sa-leak-me",
  "c2VjcmV0LXNpZ25pbmctc2VlZA",
  "hunter2-db-password",
  "hunter3-read-password",
];

function configMessage(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("the configuration was accepted");
}

describe("configuration errors", () => {
  test("name each variable and its rule, show plain values, hide secrets and URL passwords", () => {
    const message = configMessage({ ...SECRETS, PORT: "eighty" });
    for (const leak of LEAKS) expect(message).not.toContain(leak);
    expect(message).toContain(
      "SVC_API_KEY must be a string matching ^svc_sk_[A-Za-z0-9]{24,}$ (value not shown: secret)",
    );
    expect(message).toContain(
      "SUPERADMIN_API_KEY must be a string of at least 16 characters (value not shown: secret)",
    );
    expect(message).toContain("FORGET_SIGNING_KEY must be");
    expect(message).toContain(
      'DATABASE_URL must be a string matching ^postgres(ql)?:// (got "mysql://svc:***@db:3306/svc")',
    );
    expect(message).toContain("DATABASE_READ_URL");
    expect(message).toContain('PORT must be an integer from 0 to 65535 (got "eighty")');
  });

  test("the secret rule is on names, so variables other areas add later are covered", () => {
    for (const name of [
      "S3_SECRET",
      "WEBHOOK_TOKEN",
      "SMTP_PASSWORD",
      "ANTHROPIC_API_KEY",
      "llm_api_key",
    ]) {
      expect(isSecretName(name), name).toBe(true);
      expect(shownValue(name, "plaintext-secret")).not.toContain("plaintext-secret");
    }
    for (const name of ["PORT", "KEYWORDS", "TOKEN_BUDGET", "SECRETARY"])
      expect(isSecretName(name), name).toBe(false);
    expect(shownValue("ANY_URL", "redis://:p4ss@valkey:6379")).not.toContain("p4ss");
    expect(withoutUrlPassword("postgres://u:p@h:bad/db")).toBe("postgres://u:***@h:bad/db");
  });

  test("the real process prints the rule and exits 1 without any secret on stderr or stdout", async () => {
    const r = await runSvc(["serve"], serviceEnv(SECRETS));
    expect(r.code).toBe(1);
    for (const name of Object.keys(SECRETS)) expect(r.stderr).toContain(name);
    for (const leak of LEAKS) expect(r.stderr + r.stdout).not.toContain(leak);
  });
});
