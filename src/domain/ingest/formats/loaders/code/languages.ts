// The languages the code loader parses, with their tree-sitter grammar (from
// @vscode/tree-sitter-wasm, embedded at build time) and the node types that are declarations worth
// a chunk of their own.
import bashWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm" with { type: "file" };
import csharpWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-c-sharp.wasm" with {
  type: "file",
};
import cppWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-cpp.wasm" with { type: "file" };
import goWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-go.wasm" with { type: "file" };
import javaWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-java.wasm" with { type: "file" };
import javascriptWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-javascript.wasm" with {
  type: "file",
};
import phpWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-php.wasm" with { type: "file" };
import pythonWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-python.wasm" with {
  type: "file",
};
import rubyWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-ruby.wasm" with { type: "file" };
import rustWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-rust.wasm" with { type: "file" };
import tsxWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-tsx.wasm" with { type: "file" };
import typescriptWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-typescript.wasm" with {
  type: "file",
};

export type CodeLanguage = {
  name: string;
  grammar: string;
  extensions: string[];
  mimeTypes: string[];
  /** Node types that become a chunk of their own, named by their `name` field. */
  declarations: string[];
  /** Node types that hold members (a class body): an oversized declaration is split along them. */
  bodies: string[];
};

const JS_DECLARATIONS = [
  "function_declaration",
  "generator_function_declaration",
  "class_declaration",
  "abstract_class_declaration",
  "interface_declaration",
  "type_alias_declaration",
  "enum_declaration",
  "module",
  "internal_module",
  "lexical_declaration",
  "variable_declaration",
  "method_definition",
  "public_field_definition",
  "export_statement",
];
const JS_BODIES = ["class_body", "interface_body", "object_type", "enum_body", "statement_block"];

export const CODE_LANGUAGES: readonly CodeLanguage[] = [
  {
    name: "typescript",
    grammar: typescriptWasm,
    extensions: [".ts", ".mts", ".cts"],
    mimeTypes: ["application/typescript", "text/typescript", "application/x-typescript"],
    declarations: JS_DECLARATIONS,
    bodies: JS_BODIES,
  },
  {
    name: "tsx",
    grammar: tsxWasm,
    extensions: [".tsx"],
    mimeTypes: ["text/tsx"],
    declarations: JS_DECLARATIONS,
    bodies: JS_BODIES,
  },
  {
    name: "javascript",
    grammar: javascriptWasm,
    extensions: [".js", ".mjs", ".cjs", ".jsx"],
    mimeTypes: ["text/javascript", "application/javascript", "application/x-javascript"],
    declarations: JS_DECLARATIONS,
    bodies: JS_BODIES,
  },
  {
    name: "python",
    grammar: pythonWasm,
    extensions: [".py", ".pyi"],
    mimeTypes: ["text/x-python", "application/x-python", "text/x-script.python"],
    declarations: ["function_definition", "class_definition", "decorated_definition"],
    bodies: ["block"],
  },
  {
    name: "go",
    grammar: goWasm,
    extensions: [".go"],
    mimeTypes: ["text/x-go"],
    declarations: ["function_declaration", "method_declaration", "type_declaration"],
    bodies: [],
  },
  {
    name: "rust",
    grammar: rustWasm,
    extensions: [".rs"],
    mimeTypes: ["text/rust", "text/x-rust"],
    declarations: [
      "function_item",
      "struct_item",
      "enum_item",
      "trait_item",
      "impl_item",
      "mod_item",
      "macro_definition",
    ],
    bodies: ["declaration_list"],
  },
  {
    name: "java",
    grammar: javaWasm,
    extensions: [".java"],
    mimeTypes: ["text/x-java", "text/x-java-source"],
    declarations: [
      "class_declaration",
      "interface_declaration",
      "enum_declaration",
      "record_declaration",
      "method_declaration",
      "constructor_declaration",
    ],
    bodies: ["class_body", "interface_body", "enum_body"],
  },
  {
    name: "csharp",
    grammar: csharpWasm,
    extensions: [".cs"],
    mimeTypes: ["text/x-csharp"],
    declarations: [
      "namespace_declaration",
      "class_declaration",
      "interface_declaration",
      "struct_declaration",
      "enum_declaration",
      "record_declaration",
      "method_declaration",
      "constructor_declaration",
    ],
    bodies: ["declaration_list"],
  },
  {
    name: "cpp",
    grammar: cppWasm,
    extensions: [".cpp", ".cc", ".cxx", ".hpp", ".hh", ".h", ".c"],
    mimeTypes: ["text/x-c++src", "text/x-c", "text/x-csrc"],
    declarations: [
      "function_definition",
      "class_specifier",
      "struct_specifier",
      "namespace_definition",
    ],
    bodies: ["field_declaration_list", "declaration_list"],
  },
  {
    name: "ruby",
    grammar: rubyWasm,
    extensions: [".rb"],
    mimeTypes: ["text/x-ruby", "application/x-ruby"],
    declarations: ["method", "singleton_method", "class", "module"],
    bodies: ["body_statement"],
  },
  {
    name: "php",
    grammar: phpWasm,
    extensions: [".php"],
    mimeTypes: ["application/x-php", "text/x-php"],
    declarations: [
      "function_definition",
      "class_declaration",
      "interface_declaration",
      "trait_declaration",
      "method_declaration",
    ],
    bodies: ["declaration_list"],
  },
  {
    name: "bash",
    grammar: bashWasm,
    extensions: [".sh", ".bash"],
    mimeTypes: ["application/x-sh", "text/x-shellscript"],
    declarations: ["function_definition"],
    bodies: [],
  },
];

export function languageOfExtension(ext: string): CodeLanguage | undefined {
  return CODE_LANGUAGES.find((l) => l.extensions.includes(ext));
}

export function languageOfMimeType(type: string): CodeLanguage | undefined {
  return CODE_LANGUAGES.find((l) => l.mimeTypes.includes(type));
}
