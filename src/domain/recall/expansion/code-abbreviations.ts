// Programming's common short forms: a query in words ("convert a string to a dictionary") meets
// code that writes `str` and `dict`, and a query in code's words meets prose. Each pair goes both
// ways; LEXICAL adds the other form at a low weight (any-word-terms.ts), so a word and its short
// form are one loose match, never an equal one.
const PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["string", "str"],
  ["dictionary", "dict"],
  ["length", "len"],
  ["array", "arr"],
  ["number", "num"],
  ["index", "idx"],
  ["image", "img"],
  ["message", "msg"],
  ["integer", "int"],
  ["directory", "dir"],
  ["argument", "arg"],
  ["parameter", "param"],
  ["object", "obj"],
  ["function", "func"],
  ["value", "val"],
  ["variable", "var"],
  ["temporary", "tmp"],
  ["source", "src"],
  ["destination", "dst"],
  ["configuration", "config"],
  ["environment", "env"],
  ["request", "req"],
  ["response", "resp"],
  ["context", "ctx"],
  ["error", "err"],
  ["exception", "exc"],
  ["column", "col"],
  ["character", "char"],
  ["sequence", "seq"],
  ["database", "db"],
  ["connection", "conn"],
  ["attribute", "attr"],
  ["element", "elem"],
  ["buffer", "buf"],
  ["position", "pos"],
  ["average", "avg"],
  ["count", "cnt"],
  ["format", "fmt"],
  ["initialize", "init"],
  ["delete", "del"],
  ["remove", "rm"],
  ["previous", "prev"],
  ["reference", "ref"],
  ["boolean", "bool"],
  ["iterator", "iter"],
];

const other = new Map<string, string>();
for (const [long, short] of PAIRS) {
  other.set(long, short);
  other.set(short, long);
}

/** "strings" as "string", "dictionaries" as "dictionary": a plural's forms are the singular's. */
function singularsOf(word: string): string[] {
  const forms = [word];
  if (word.endsWith("ies")) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith("es")) forms.push(word.slice(0, -2));
  if (word.endsWith("s")) forms.push(word.slice(0, -1));
  return forms;
}

/** The other forms of lowercase `words`, none of them among `words`. */
export function abbreviationsOf(words: string[]): string[] {
  const own = new Set(words);
  const found = new Set<string>();
  for (const word of words) {
    const form = singularsOf(word)
      .map((w) => other.get(w))
      .find((f) => f !== undefined);
    if (form && !own.has(form)) found.add(form);
  }
  return [...found];
}
