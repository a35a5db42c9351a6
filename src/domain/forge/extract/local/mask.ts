// Masking before tagging: URLs, emails, file paths, code identifiers, versions, dotted product
// names and quoted strings become one placeholder word each (wink would split `ops/deploy.sh` into
// five tokens and tag them as verbs and nouns). Each placeholder comes back as a typed entity.
export type SlotKind = "URL" | "EMAIL" | "FILE" | "SYMBOL" | "VERSION" | "NAME" | "QUOTED";

export type Slot = {
  kind: SlotKind;
  text: string;
  placeholder: string;
  start: number;
  end: number;
};

export type Masked = {
  text: string;
  slots: Slot[];
  /** Placeholder word → slot. */
  byPlaceholder: Map<string, Slot>;
  /** An offset in the masked text → the offset in the original content. */
  toOriginal(offset: number): number;
};

const EXTENSIONS =
  "ts tsx js mjs cjs jsx py pyi rb go rs java kt kts scala c h cc cpp hpp cs php sh bash zsh fish ps1 sql json jsonl yaml yml toml ini cfg conf env md mdx rst txt csv tsv html htm css scss less xml lock log tf tfvars proto graphql gql vue svelte swift ex exs erl lua pl r ipynb pdf docx xlsx pptx png jpg jpeg gif svg webp gz tgz zip tar wasm so dll exe bin dat db sqlite parquet avro";
const FILE_EXTENSION = new RegExp(`\\.(?:${EXTENSIONS.replaceAll(" ", "|")})$`);
const WELL_KNOWN_FILES = new Set(
  "Dockerfile Makefile Procfile Gemfile Rakefile Jenkinsfile Vagrantfile Justfile Caddyfile CODEOWNERS".split(
    " ",
  ),
);
const DOMAIN_ENDINGS =
  /\.(?:com|org|net|io|dev|ai|co|app|cloud|edu|gov|uk|de|fr|eu|info|biz|me|sh)$/;
/** camelCase words that are product names, not code. */
const CAMEL_NAMES = new Set(
  "iOS macOS iPadOS watchOS tvOS iPhone iPad iCloud iTunes iMac eBay jQuery gRPC npm pnpm"
    .split(" ")
    .map((w) => w.toLowerCase()),
);
const CODE_SUFFIXES =
  "Service Client Server Controller Manager Handler Factory Provider Error Exception Config Options Util Utils Helper Store Repository Repo Component Module Interface Adapter Builder Parser Queue Worker Listener Middleware Router Resolver Schema Model View Request Response Context Type Policy Strategy Loader Writer Reader Test Spec Hook Provider Registry";
const PASCAL_CODE = new RegExp(
  `^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*(?:${CODE_SUFFIXES.replaceAll(" ", "|")})$`,
);

type Candidate = { kind: SlotKind; start: number; end: number; text: string };

const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;

function classifyPathLike(text: string): SlotKind | null {
  const segments = text.replace(/^(?:~|\.{1,2})?\//, "").split("/");
  if (!/[A-Za-z]/.test(text) || segments.every((s) => /^\d*$/.test(s))) return null;
  const rooted = /^(?:~|\.{1,2})?\//.test(text);
  if (
    rooted ||
    text.endsWith("/") ||
    FILE_EXTENSION.test(text) ||
    segments.filter(Boolean).length >= 3
  )
    return "FILE";
  return null;
}

function classifyIdentifier(text: string): SlotKind | null {
  if (/\(\)$|::|->/.test(text)) return "SYMBOL";
  if (text.includes(".")) {
    const parts = text.split(".");
    if (parts.some((p) => p.length < 2)) return null;
    if (/^[A-Z]/.test(text) && /^(?:js|ts|NET|io)$/i.test(parts.at(-1)!)) return "NAME";
    if (FILE_EXTENSION.test(text)) return "FILE";
    if (DOMAIN_ENDINGS.test(text)) return "URL";
    if (parts.length >= 3 || parts.every((p) => /^[a-z_$][\w$]*$/.test(p))) return "SYMBOL";
    return null;
  }
  if (/_/.test(text) && /[A-Za-z]/.test(text) && !/^_+$/.test(text)) return "SYMBOL";
  if (/^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/.test(text))
    return CAMEL_NAMES.has(text.toLowerCase()) ? null : "SYMBOL";
  if (PASCAL_CODE.test(text) && /[a-z][A-Z]/.test(text)) return "SYMBOL";
  return null;
}

function classifyCode(inner: string): SlotKind {
  if (/^https?:\/\//.test(inner)) return "URL";
  if (inner.includes("/")) return classifyPathLike(inner) ?? "FILE";
  if (FILE_EXTENSION.test(inner) || WELL_KNOWN_FILES.has(inner)) return "FILE";
  if (/^[\w$.:>()-]+$/.test(inner)) return "SYMBOL";
  return "QUOTED";
}

const MATCHERS: Array<{ pattern: RegExp; classify: (match: RegExpExecArray) => Candidate | null }> =
  [
    {
      pattern: /`([^`\n]{1,200})`/g,
      classify: (m) => ({
        kind: classifyCode(m[1]!),
        start: m.index,
        end: m.index + m[0].length,
        text: m[1]!,
      }),
    },
    {
      pattern: /["“]([^"“”\n]{1,80})["”]/g,
      classify: (m) => ({
        kind: "QUOTED",
        start: m.index,
        end: m.index + m[0].length,
        text: m[1]!,
      }),
    },
    { pattern: /\bhttps?:\/\/[^\s<>"'`]+/g, classify: (m) => trimmed(m, "URL") },
    {
      pattern: /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g,
      classify: (m) => ({ kind: "EMAIL", start: m.index, end: m.index + m[0].length, text: m[0] }),
    },
    {
      pattern: /(?<![\w/.~@-])(?:~|\.{1,2})?\/?(?:[\w.@*-]+\/)+[\w.@*-]*/g,
      classify: (m) => pathCandidate(m),
    },
    {
      pattern: /(?<![\w.])v\d+(?:\.\d+){0,3}(?:-[\w.]+)?\b|(?<![\w.])\d+\.\d+\.\d+(?:-[\w.]+)?\b/g,
      classify: (m) => ({
        kind: "VERSION",
        start: m.index,
        end: m.index + m[0].length,
        text: m[0],
      }),
    },
    {
      pattern: /(?<![\w.])\.[a-z][\w.-]*[a-z]\b/g,
      classify: (m) => ({ kind: "FILE", start: m.index, end: m.index + m[0].length, text: m[0] }),
    },
    {
      pattern: /\b[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*(?:\(\))?/g,
      classify: (m) => identifierCandidate(m),
    },
  ];

function trimmed(m: RegExpExecArray, kind: SlotKind): Candidate {
  const text = m[0].replace(TRAILING_PUNCTUATION, "");
  return { kind, start: m.index, end: m.index + text.length, text };
}

function pathCandidate(m: RegExpExecArray): Candidate | null {
  const text = m[0].replace(/[.,;:!?)]+$/, "");
  const kind = classifyPathLike(text);
  return kind ? { kind, start: m.index, end: m.index + text.length, text } : null;
}

function identifierCandidate(m: RegExpExecArray): Candidate | null {
  const text = m[0];
  if (FILE_EXTENSION.test(text) && !/^[A-Z][A-Za-z0-9]*\.js$/.test(text))
    return { kind: "FILE", start: m.index, end: m.index + text.length, text };
  if (WELL_KNOWN_FILES.has(text))
    return { kind: "FILE", start: m.index, end: m.index + text.length, text };
  const kind = classifyIdentifier(text);
  return kind ? { kind, start: m.index, end: m.index + text.length, text } : null;
}

/** Non-overlapping candidates, earlier matchers first (a URL wins over the path inside it). */
function findCandidates(content: string): Candidate[] {
  const taken: Candidate[] = [];
  const overlaps = (c: Candidate) => taken.some((t) => c.start < t.end && t.start < c.end);
  for (const { pattern, classify } of MATCHERS) {
    for (const match of content.matchAll(pattern)) {
      const candidate = classify(match as RegExpExecArray);
      if (candidate && candidate.end > candidate.start && !overlaps(candidate))
        taken.push(candidate);
    }
  }
  return taken.sort((a, b) => a.start - b.start);
}

function placeholderPrefix(content: string): string {
  let prefix = "Zqslot";
  while (content.toLowerCase().includes(prefix.toLowerCase())) prefix = `Zq${prefix}`;
  return prefix;
}

/** Letters only: wink keeps a letters-only capitalised word whole and tags it PROPN. */
function letters(index: number): string {
  let out = "";
  let n = index;
  do {
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return out;
}

export function mask(content: string): Masked {
  const prefix = placeholderPrefix(content);
  const slots: Slot[] = [];
  const shifts: Array<{ maskedStart: number; maskedEnd: number; start: number; end: number }> = [];
  let text = "";
  let cursor = 0;
  for (const candidate of findCandidates(content)) {
    text += content.slice(cursor, candidate.start);
    const placeholder = `${prefix}${letters(slots.length)}`;
    shifts.push({
      maskedStart: text.length,
      maskedEnd: text.length + placeholder.length,
      start: candidate.start,
      end: candidate.end,
    });
    text += placeholder;
    slots.push({
      kind: candidate.kind,
      text: candidate.text,
      placeholder,
      start: candidate.start,
      end: candidate.end,
    });
    cursor = candidate.end;
  }
  text += content.slice(cursor);
  const toOriginal = (offset: number) => {
    let mapped = offset;
    for (const s of shifts) {
      if (offset >= s.maskedEnd) mapped = offset - s.maskedEnd + s.end;
      else if (offset > s.maskedStart) return s.end;
      else if (offset === s.maskedStart) return s.start;
      else break;
    }
    return mapped;
  };
  return { text, slots, byPlaceholder: new Map(slots.map((s) => [s.placeholder, s])), toOriginal };
}
