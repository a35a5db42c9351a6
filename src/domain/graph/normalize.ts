// normalized_name: the half of the spec's dedupe key (memo_type, normalized_name) that comes from a
// name. NFKC, case-folded, quotes and apostrophes dropped, other punctuation a space (but the
// separators that carry meaning inside identifiers, paths and versions are kept: a.b a/b a-b a_b
// c++ c#), whitespace collapsed, one leading article dropped. "The Acme Corp." meets "acme corp";
// digits are kept, so "Python 2" never meets "Python 3".
const LEADING_ARTICLE = /^(?:the|a|an)\s+/;
const DROPPED = /[\p{Pi}\p{Pf}'"`’‘“”]/gu;
const SPACED = /[^\p{L}\p{N}\p{M}\s./_+#-]/gu;
const TRAILING_SEPARATORS = /[./_-]+$/;

export function normalizeName(name: string): string {
  const words = name
    .normalize("NFKC")
    .toLowerCase()
    .replace(DROPPED, "")
    .replace(SPACED, " ")
    .split(/\s+/);
  return words
    .map((w) => w.replace(TRAILING_SEPARATORS, ""))
    .filter(Boolean)
    .join(" ")
    .replace(LEADING_ARTICLE, "");
}
