-- Recall: the text document behind LEXICAL and TEMPORAL, and the identifier tokens behind CODE.
--
-- Why a stored column and no GIN index: under row-level security PostgreSQL only uses an index for a
-- condition whose operator is LEAKPROOF, and the full-text (@@), trigram (<%) and array (&&)
-- operators are not (marking them needs a superuser). Recall therefore narrows candidates with the
-- btree memories_agent_current (org_id, agent_id: leakproof equality) and matches inside that set;
-- storing the weighted tsvector makes each match a cheap comparison instead of re-parsing the content.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Weighted document: the content is weight A, string values of metadata (tags, titles…) weight C.
CREATE FUNCTION svc_memory_document(content text, metadata jsonb) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN setweight(to_tsvector('english'::regconfig, content), 'A')
      || setweight(jsonb_to_tsvector('english'::regconfig, metadata, '["string"]'), 'C');

ALTER TABLE memories ADD COLUMN search_document tsvector
  GENERATED ALWAYS AS (svc_memory_document(content, metadata)) STORED;

-- A memory holds code when its metadata says so: {"kind": "code"}, or a "language" or "path" key.
CREATE FUNCTION svc_marks_code(metadata jsonb) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN metadata @> '{"kind": "code"}' OR metadata ? 'language' OR metadata ? 'path';

-- Identifier-aware tokens, lowercased: whole identifiers, their camelCase / snake_case parts (two
-- characters or more), and qualified names or paths (a/b/c.ts, pkg.mod.fn, ns::fn, obj->field).
-- Queries tokenise with this same function, so both sides always agree.
CREATE FUNCTION svc_code_tokens(content text, metadata jsonb) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    WITH src AS (
      SELECT content || ' ' || coalesce(metadata ->> 'path', '') || ' ' || coalesce(metadata ->> 'symbol', '') AS t
    ), qualified AS (
      SELECT lower(m[1]) AS tok
      FROM src, regexp_matches(src.t, '([A-Za-z0-9_$.-]*[A-Za-z0-9_$](?:(?:/|\.|::|->)[A-Za-z0-9_$-]+)+)', 'g') AS m
    ), idents AS (
      SELECT m[1] AS id FROM src, regexp_matches(src.t, '([A-Za-z_$][A-Za-z0-9_$]*)', 'g') AS m
    ), parts AS (
      SELECT lower(p) AS tok
      FROM idents, regexp_split_to_table(
        regexp_replace(regexp_replace(id, '([a-z0-9])([A-Z])', '\1_\2', 'g'), '([A-Z]+)([A-Z][a-z])', '\1_\2', 'g'),
        '[_$]+') AS p
      WHERE length(p) >= 2
    )
    SELECT coalesce(array_agg(DISTINCT tok), '{}')
    FROM (SELECT tok FROM qualified UNION SELECT lower(id) FROM idents UNION SELECT tok FROM parts) AS all_tokens
  $$;

GRANT EXECUTE ON FUNCTION svc_memory_document(text, jsonb), svc_marks_code(jsonb), svc_code_tokens(text, jsonb) TO svc_app;
