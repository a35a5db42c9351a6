// A cursor over the tokens for the recursive-descent parser: lookahead, expectations, and errors
// that name the token where parsing stopped. Words outside the subset get a message saying why.
import { CypherError, quote } from "./errors";
import type { Token } from "./tokens";

const READ_ONLY = "CYPHER queries are read-only";
const SUBSET = "outside the supported subset (MATCH … WHERE … RETURN …)";

/** Keywords that start a clause or construct we refuse, with the reason given to the client. */
export const REFUSED_KEYWORDS: Readonly<Record<string, string>> = {
  CREATE: `write clause CREATE is not allowed: ${READ_ONLY}`,
  MERGE: `write clause MERGE is not allowed: ${READ_ONLY}`,
  SET: `write clause SET is not allowed: ${READ_ONLY}`,
  DELETE: `write clause DELETE is not allowed: ${READ_ONLY}`,
  DETACH: `write clause DETACH DELETE is not allowed: ${READ_ONLY}`,
  REMOVE: `write clause REMOVE is not allowed: ${READ_ONLY}`,
  FOREACH: `FOREACH is not allowed: ${READ_ONLY}`,
  CALL: "CALL (procedures and subqueries) is not supported",
  LOAD: "LOAD CSV is not supported",
  UNWIND: `UNWIND is ${SUBSET}`,
  WITH: `WITH is ${SUBSET}`,
  OPTIONAL: `OPTIONAL MATCH is ${SUBSET}`,
  UNION: `UNION is ${SUBSET}`,
  USE: `USE is ${SUBSET}`,
  USING: `query hints (USING) are ${SUBSET}`,
  EXPLAIN: `EXPLAIN is ${SUBSET}`,
  PROFILE: `PROFILE is ${SUBSET}`,
  FINISH: `FINISH is ${SUBSET}`,
  YIELD: `YIELD is ${SUBSET}`,
  SHOW: "administration commands (SHOW) are not supported",
  DROP: "administration commands (DROP) are not supported",
  ALTER: "administration commands (ALTER) are not supported",
  GRANT: "administration commands (GRANT) are not supported",
  DENY: "administration commands (DENY) are not supported",
  REVOKE: "administration commands (REVOKE) are not supported",
  START: "administration commands (START) are not supported",
  STOP: "administration commands (STOP) are not supported",
  TERMINATE: "administration commands (TERMINATE) are not supported",
};

export const MAX_NESTING = 32;

export class TokenStream {
  private index = 0;
  /** Offset just past the last consumed token (for the source text of RETURN items). */
  lastEnd = 0;

  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    readonly source: string,
  ) {}

  /** Bounds recursion (parentheses, lists, NOT chains) so no query text can exhaust the stack. */
  nested<T>(token: Token, parse: () => T): T {
    if (++this.depth > MAX_NESTING)
      this.failAt(token, `expressions nest deeper than ${MAX_NESTING} levels`);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)]!;
  }

  next(): Token {
    const token = this.peek();
    if (token.kind !== "eof") {
      this.index++;
      this.lastEnd = token.pos.offset + token.text.length;
    }
    return token;
  }

  isSymbol(symbol: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === "symbol" && t.value === symbol;
  }

  /** A keyword: an unquoted word, case-insensitive. */
  isWord(keyword: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === "word" && t.value.toUpperCase() === keyword;
  }

  acceptSymbol(symbol: string): boolean {
    if (!this.isSymbol(symbol)) return false;
    this.next();
    return true;
  }

  acceptWord(keyword: string): boolean {
    if (!this.isWord(keyword)) return false;
    this.next();
    return true;
  }

  expectSymbol(symbol: string, context: string): Token {
    if (!this.isSymbol(symbol)) this.fail(`expected '${symbol}' ${context}`);
    return this.next();
  }

  expectWord(keyword: string, context: string): Token {
    if (!this.isWord(keyword)) this.fail(`expected ${keyword} ${context}`);
    return this.next();
  }

  /**
   * Fails at the current token; a refused keyword's own reason wins over the generic expectation.
   */
  fail(expectation: string, token: Token = this.peek()): never {
    const refused = token.kind === "word" ? REFUSED_KEYWORDS[token.value.toUpperCase()] : undefined;
    if (refused) throw new CypherError(refused, token.text, token.pos);
    throw new CypherError(`unexpected ${quote(token.text)}: ${expectation}`, token.text, token.pos);
  }

  failAt(token: Token, message: string): never {
    throw new CypherError(message, token.text, token.pos);
  }
}
