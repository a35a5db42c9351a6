// The typed AST of the read-only Cypher subset (grammar in docs/cypher.md). Every node keeps the
// position of its first token, so later checks can point at the source.
import type { SourcePos } from "./errors";

export type Name = { name: string; pos: SourcePos };

export type Literal = string | number | boolean | null;

export type Expr =
  | { kind: "literal"; value: Literal; pos: SourcePos }
  | { kind: "param"; name: string; pos: SourcePos }
  | { kind: "variable"; name: string; pos: SourcePos }
  | { kind: "property"; target: Expr; key: string; pos: SourcePos }
  | { kind: "list"; items: Expr[]; pos: SourcePos }
  | {
      kind: "call";
      name: CypherFunction;
      distinct: boolean;
      star: boolean;
      args: Expr[];
      pos: SourcePos;
    }
  | { kind: "not"; operand: Expr; pos: SourcePos }
  | { kind: "logic"; op: "and" | "or" | "xor"; left: Expr; right: Expr; pos: SourcePos }
  | { kind: "compare"; op: CompareOp; left: Expr; right: Expr; pos: SourcePos }
  | {
      kind: "string-match";
      op: "starts" | "ends" | "contains";
      left: Expr;
      right: Expr;
      pos: SourcePos;
    }
  | { kind: "in"; left: Expr; right: Expr; pos: SourcePos }
  | { kind: "is-null"; operand: Expr; negated: boolean; pos: SourcePos }
  | { kind: "has-labels"; variable: Name; labels: Name[]; pos: SourcePos };

export type CompareOp = "=" | "<>" | "<" | "<=" | ">" | ">=";

/** Functions of the subset; names are matched case-insensitively and stored in this spelling. */
export const CYPHER_FUNCTIONS = [
  "id",
  "elementId",
  "type",
  "labels",
  "length",
  "size",
  "nodes",
  "relationships",
  "properties",
  "count",
  "coalesce",
  "toLower",
  "toUpper",
] as const;
export type CypherFunction = (typeof CYPHER_FUNCTIONS)[number];

export type PropertyMap = { entries: Array<{ key: Name; value: Expr }>; pos: SourcePos };

export type NodePattern = {
  variable: Name | null;
  labels: Name[];
  properties: PropertyMap | null;
  pos: SourcePos;
};

export type Direction = "out" | "in" | "both";

export type RelPattern = {
  variable: Name | null;
  types: Name[];
  direction: Direction;
  /** null: exactly one hop. Bounds as written; null min means 1, null max means the hop cap. */
  length: { min: number | null; max: number | null; pos: SourcePos } | null;
  properties: PropertyMap | null;
  pos: SourcePos;
};

export type Pattern = {
  pathVariable: Name | null;
  start: NodePattern;
  steps: Array<{ rel: RelPattern; node: NodePattern }>;
  pos: SourcePos;
};

export type MatchClause = { patterns: Pattern[]; where: Expr | null; pos: SourcePos };

export type ReturnItem = {
  expr: Expr;
  alias: Name | null /** The column name: the alias, else the item's source text. */;
  column: string;
  pos: SourcePos;
};

export type SortItem = { expr: Expr; descending: boolean };

export type CypherQuery = {
  matches: MatchClause[];
  distinct: boolean;
  /** RETURN *: every named variable, in the order they were introduced. */
  star: boolean;
  items: ReturnItem[];
  orderBy: SortItem[];
  skip: Expr | null;
  limit: Expr | null;
};
