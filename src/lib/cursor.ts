// Opaque pagination cursors: base64url JSON arrays; a cursor that does not decode is a 422, not a
// 500.
import { validationFailed } from "./errors";

export function encodeCursor(values: unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

export function decodeCursor<T>(cursor: string, read: (values: unknown[]) => T): T {
  try {
    const values = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(values)) throw new Error("not an array");
    const decoded = read(values);
    for (const v of Object.values(decoded as object))
      if (v instanceof Date && Number.isNaN(v.getTime())) throw new Error("bad date");
    return decoded;
  } catch {
    throw validationFailed([
      { path: "/cursor", message: "is not a cursor returned by this endpoint" },
    ]);
  }
}
