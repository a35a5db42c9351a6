// Type shims for files imported as text or embedded as files by `bun build --compile`.
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.lua" {
  const text: string;
  export default text;
}
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const path: string;
  export default path;
}
declare module "swagger-ui-dist/swagger-ui.css" {
  const path: string;
  export default path;
}
declare module "redoc/bundles/redoc.standalone.js" {
  const path: string;
  export default path;
}
declare module "*.wasm" {
  const path: string;
  export default path;
}
declare module "*.data" {
  const path: string;
  export default path;
}
declare module "*.tar.gz" {
  const path: string;
  export default path;
}
declare module "cytoscape/dist/cytoscape.esm.min.mjs" {
  const path: string;
  export default path;
}
declare module "*.css" {
  const path: string;
  export default path;
}
