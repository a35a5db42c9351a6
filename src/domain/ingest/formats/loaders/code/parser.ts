// tree-sitter in WebAssembly: the runtime is initialised once and each grammar loaded on first use.
import { Language, Parser } from "web-tree-sitter";
import runtimeWasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };
import type { CodeLanguage } from "./languages";

let runtime: Promise<void> | null = null;
const grammars = new Map<string, Promise<Language>>();

async function grammarOf(language: CodeLanguage): Promise<Language> {
  runtime ??= Parser.init({ locateFile: () => runtimeWasm });
  await runtime;
  let grammar = grammars.get(language.name);
  if (!grammar) {
    grammar = Bun.file(language.grammar)
      .bytes()
      .then((bytes) => Language.load(bytes));
    grammars.set(language.name, grammar);
  }
  return grammar;
}

/**
 * A parser for one document; the caller deletes it (WebAssembly memory is not garbage-collected).
 */
export async function parserFor(language: CodeLanguage): Promise<Parser> {
  const grammar = await grammarOf(language);
  const parser = new Parser();
  parser.setLanguage(grammar);
  return parser;
}
