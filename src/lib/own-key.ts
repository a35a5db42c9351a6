// Lookups by a name a caller chose (error slug, strategy, loader, …) read only the table's own
// entries: "constructor", "__proto__" or "toString" must find nothing rather than
// Object.prototype's members.
export function ownValue<V>(table: Readonly<Record<string, V>>, name: string): V | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
