// RETRIEVAL_REDACTION_ENABLED: masks secrets and personal data in recall output (content and every
// string inside metadata) as [REDACTED:<kind>]. Stored memories are never changed. Rules run in
// the order below, so a secret is masked before its digits could be read as a card or a phone
// number.
export type RedactionKind = "private_key" | "secret" | "email" | "card" | "phone";

const CARD_CANDIDATE = /\b\d(?:[ -]?\d){12,18}\b/g;

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

type Rule = {
  kind: RedactionKind;
  re: RegExp;
  replace?: (match: string, ...groups: string[]) => string | null;
};

const RULES: Rule[] = [
  {
    kind: "private_key",
    re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  },
  {
    kind: "secret",
    re: new RegExp(
      [
        /\bsvc_sk_[A-Za-z0-9]{16,}/,
        /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/,
        /\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/,
        /\bA(?:KIA|SIA)[0-9A-Z]{16}\b/,
        /\bgh[pousr]_[A-Za-z0-9]{36,}/,
        /\bgithub_pat_[A-Za-z0-9_]{22,}/,
        /\bxox[abposr]-[A-Za-z0-9-]{10,}/,
        /\bAIza[0-9A-Za-z_-]{35}/,
        /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
        /\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/,
      ]
        .map((r) => r.source)
        .join("|"),
      "g",
    ),
  },
  {
    // key = value assignments: the name stays readable, only the value is masked.
    kind: "secret",
    re: /\b((?:api[_-]?key|apikey|secret(?:[_-]?key)?|client[_-]?secret|access[_-]?token|auth[_-]?token|token|password|passwd|pwd)\s*[:=]\s*["']?)([^\s"',;]{6,})/gi,
    replace: (_m, name) => `${name}[REDACTED:secret]`,
  },
  { kind: "email", re: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g },
  {
    kind: "card",
    re: CARD_CANDIDATE,
    replace: (m) => (luhnValid(m.replace(/\D/g, "")) ? "[REDACTED:card]" : null),
  },
  {
    // International (+ and 8–15 digits) or North American (3-3-4) numbers with the usual
    // separators.
    kind: "phone",
    re: /(?<![\w+])(?:\+\d{1,3}[\s.-]?(?:\(\d{1,4}\)[\s.-]?)?\d{1,4}(?:[\s.-]?\d{2,4}){1,4}|\(?\b\d{3}\)?[\s.-]\d{3}[\s.-]\d{4})\b/g,
    replace: (m) => {
      const n = m.replace(/\D/g, "").length;
      return n >= 9 && n <= 15 ? "[REDACTED:phone]" : null;
    },
  },
];

export type Redacted<T> = { value: T; count: number };

export function redactText(text: string): Redacted<string> {
  let count = 0;
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.re, (match: string, ...groups: unknown[]) => {
      const replacement = rule.replace
        ? rule.replace(match, ...(groups as string[]))
        : `[REDACTED:${rule.kind}]`;
      if (replacement === null) return match;
      count++;
      return replacement;
    });
  }
  return { value: out, count };
}

/** Every string inside a JSON value, keys left as they are. */
export function redactJson<T>(value: T): Redacted<T> {
  let count = 0;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      const r = redactText(v);
      count += r.count;
      return r.value;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object" && !(v instanceof Date))
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return { value: walk(value) as T, count };
}
