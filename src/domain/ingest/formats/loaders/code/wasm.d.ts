// WebAssembly grammars are imported `with { type: "file" }`: the import is the file's path, which
// `bun build --compile` embeds in the binary.
declare module "*.wasm" {
  const path: string;
  export default path;
}
