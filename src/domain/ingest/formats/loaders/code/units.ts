// Cutting a syntax tree into code chunks: every top-level declaration (with the comments right
// above it) is a chunk of its own, named by its symbol; the code between declarations (imports,
// statements) is grouped up to the code chunk size. A container (class, interface, module, impl…)
// larger than the code chunk size is split into its members, named "Container.member"; a function
// or method is never split unless it exceeds the memory size limit, and then only between lines.
import type { Node } from "web-tree-sitter";
import type { CodeLanguage } from "./languages";

export type CodeUnit = { start: number; end: number; symbols: string[]; declaration: boolean };

const NAME_HOLDERS = ["declaration", "definition", "declarator"];
const CONTAINER = /class|interface|module|namespace|impl|trait|struct|enum/;

/** The declared name(s) of a declaration node. */
export function symbolsOf(node: Node, depth = 0): string[] {
  const name = node.childForFieldName("name");
  if (name) return [name.text];
  if (depth < 3) {
    for (const field of NAME_HOLDERS) {
      const inner = node.childForFieldName(field);
      if (inner) {
        const found = symbolsOf(inner, depth + 1);
        if (found.length > 0) return found;
      }
    }
    if (node.type === "identifier" || node.type === "field_identifier") return [node.text];
  }
  // const a = …, b = …
  return node.namedChildren
    .flatMap((child) =>
      child?.type === "variable_declarator" ? [child.childForFieldName("name")?.text ?? ""] : [],
    )
    .filter(Boolean);
}

function innermostDeclaration(node: Node): Node {
  const inner = node.childForFieldName("declaration") ?? node.childForFieldName("definition");
  return inner ? innermostDeclaration(inner) : node;
}

/**
 * The member list of a container declaration (class body, impl block…), or null for anything else.
 */
function membersOf(node: Node, language: CodeLanguage): Node[] | null {
  const declaration = innermostDeclaration(node);
  if (!CONTAINER.test(declaration.type)) return null;
  const queue: Array<{ n: Node; depth: number }> = [{ n: declaration, depth: 0 }];
  while (queue.length > 0) {
    const { n, depth } = queue.shift()!;
    if (depth > 0 && language.bodies.includes(n.type))
      return n.namedChildren.filter((c): c is Node => c !== null);
    if (depth < 3)
      for (const child of n.namedChildren) if (child) queue.push({ n: child, depth: depth + 1 });
  }
  return null;
}

const isComment = (node: Node) => node.type.includes("comment");

/** Declarations (with their leading comments) and the runs of other code between them, in order. */
function unitsOf(
  nodes: Node[],
  language: CodeLanguage,
  maxChars: number,
  prefix: string,
): CodeUnit[] {
  const units: CodeUnit[] = [];
  let other: CodeUnit | null = null;
  let comments: Node[] = [];
  const flushComments = () => {
    for (const c of comments) addOther(c.startIndex, c.endIndex);
    comments = [];
  };
  const addOther = (start: number, end: number) => {
    if (other && end - other.start <= maxChars) other.end = end;
    else {
      if (other) units.push(other);
      other = { start, end, symbols: [], declaration: false };
    }
  };
  for (const node of nodes) {
    if (isComment(node)) {
      // A comment belongs to the declaration right below it (no blank line between).
      const last = comments[comments.length - 1];
      if (last && node.startPosition.row > last.endPosition.row + 1) flushComments();
      comments.push(node);
      continue;
    }
    if (language.declarations.includes(node.type)) {
      const attached =
        comments.length > 0 &&
        node.startPosition.row <= comments[comments.length - 1]!.endPosition.row + 1
          ? comments
          : [];
      if (attached.length === 0) flushComments();
      comments = [];
      if (other) {
        units.push(other);
        other = null;
      }
      const start = attached[0]?.startIndex ?? node.startIndex;
      const names = symbolsOf(node).map((s) => prefix + s);
      const members = node.endIndex - start > maxChars ? membersOf(node, language) : null;
      if (members && members.length > 0) {
        // The container's head (signature, fields before the first member) under its own name.
        const head = members[0]!.startIndex;
        if (head > start) units.push({ start, end: head, symbols: names, declaration: true });
        units.push(...unitsOf(members, language, maxChars, names[0] ? `${names[0]}.` : prefix));
      } else {
        units.push({ start, end: node.endIndex, symbols: names, declaration: true });
      }
      continue;
    }
    flushComments();
    addOther(node.startIndex, node.endIndex);
  }
  flushComments();
  if (other) units.push(other);
  return units;
}

export function codeUnits(root: Node, language: CodeLanguage, maxChars: number): CodeUnit[] {
  return unitsOf(
    root.namedChildren.filter((c): c is Node => c !== null),
    language,
    maxChars,
    "",
  );
}
