// The schema of a database as comparable rows read from the catalogs: what the upgrade test
// compares between a fresh database and one upgraded from an older release.
import type postgres from "postgres";

export type SchemaSnapshot = Record<string, string[]>;

// Objects the extensions own (pgvector, pg_trgm) are theirs, not our migrations'.
const NOT_EXTENSION = (classid: string, oid: string) =>
  `NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = '${classid}'::regclass
     AND d.objid = ${oid} AND d.deptype = 'e')`;
const OURS = "n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')";

// Each section is one catalog query whose rows are rendered as text and sorted. Columns carry their
// position among live columns: a migration inserted inside an old band adds its column elsewhere.
const SECTIONS: Record<string, string> = {
  extensions: `SELECT extname, extversion FROM pg_extension`,
  schemas: `SELECT n.nspname, n.nspacl::text FROM pg_namespace n
    WHERE ${OURS} AND n.nspname NOT LIKE 'pg_temp%' AND n.nspname NOT LIKE 'pg_toast_temp%'`,
  tables: `SELECT n.nspname, c.relname, c.relkind, c.relpersistence, c.relrowsecurity,
      c.relforcerowsecurity, c.reloptions::text, c.relispartition,
      pg_get_expr(c.relpartbound, c.oid)
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE ${OURS} AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f', 'c')
      AND ${NOT_EXTENSION("pg_class", "c.oid")}`,
  columns: `SELECT c.relname, a.attname,
      row_number() OVER (PARTITION BY c.oid ORDER BY a.attnum) AS position,
      format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(ad.adbin, ad.adrelid),
      a.attidentity, a.attgenerated, a.attacl::text, a.attstorage, a.attcompression
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
    WHERE ${OURS} AND a.attnum > 0 AND NOT a.attisdropped
      AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'c') AND ${NOT_EXTENSION("pg_class", "c.oid")}`,
  indexes: `SELECT schemaname, tablename, indexname, indexdef FROM pg_indexes
    WHERE schemaname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')`,
  constraints: `SELECT conrelid::regclass::text, conname, contype, pg_get_constraintdef(c.oid),
      condeferrable, condeferred, convalidated
    FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE ${OURS}`,
  policies: `SELECT schemaname, tablename, policyname, permissive, roles::text, cmd, qual,
      with_check FROM pg_policies`,
  grants: `SELECT n.nspname, c.relname, c.relacl::text FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${OURS} AND c.relacl IS NOT NULL`,
  defaultGrants: `SELECT defaclrole::regrole::text, defaclnamespace::regnamespace::text,
      defaclobjtype, defaclacl::text FROM pg_default_acl`,
  functions: `SELECT n.nspname, p.proname, pg_get_function_identity_arguments(p.oid), p.prokind,
      p.prosecdef, p.proconfig::text, p.proacl::text,
      CASE WHEN p.prokind IN ('f', 'p') THEN pg_get_functiondef(p.oid) END
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE ${OURS} AND ${NOT_EXTENSION("pg_proc", "p.oid")}`,
  triggers: `SELECT tgrelid::regclass::text, tgname, tgenabled, pg_get_triggerdef(t.oid)
    FROM pg_trigger t WHERE NOT t.tgisinternal`,
  types: `SELECT n.nspname, t.typname, t.typtype,
      (SELECT string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) FROM pg_enum e
        WHERE e.enumtypid = t.oid)
    FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE ${OURS} AND t.typtype IN ('e', 'd', 'r') AND ${NOT_EXTENSION("pg_type", "t.oid")}`,
  migrations: `SELECT name FROM schema_migrations`,
};

/** Every section of the database's schema, rows as tab-joined text, sorted. */
export async function schemaSnapshot(sql: postgres.Sql): Promise<SchemaSnapshot> {
  const snapshot: SchemaSnapshot = {};
  for (const [section, query] of Object.entries(SECTIONS)) {
    const rows = await sql.unsafe(query); // constant catalog queries, no input
    snapshot[section] = rows
      .map((row) =>
        Object.values(row)
          .map((v) => (v === null ? "∅" : String(v)))
          .join("\t"),
      )
      .sort();
  }
  return snapshot;
}
