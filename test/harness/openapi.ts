// Reads the operations an app registers from its own /openapi.json.
import type { TestApp } from "./app";

export type Operation = {
  method: string;
  path: string;
  concretePath: string;
  security: unknown[] | undefined;
  operation: any;
};

const METHODS = ["get", "post", "put", "patch", "delete"];

export async function operationsOf(t: TestApp): Promise<Operation[]> {
  const spec = (await t.request("GET", "/openapi.json")).body;
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(spec.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      ops.push({
        method: method.toUpperCase(),
        path,
        concretePath: path.replace(/\{[^}]+\}/g, "x"),
        security: operation.security,
        operation,
      });
    }
  }
  return ops;
}

/** Public operations declare `security: []`; everything else needs a key. */
export const isAuthenticated = (op: Operation) =>
  !(Array.isArray(op.security) && op.security.length === 0);
