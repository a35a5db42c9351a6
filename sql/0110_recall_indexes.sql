-- Recall: the text documents and indexes behind LEXICAL (weighted full text + trigram fallback) and
-- CODE (identifier tokens). Expressions live in IMMUTABLE functions so the queries in
-- src/data/queries/recall-*.ts name exactly the indexed expression.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Weighted document: the content is weight A, string values of metadata (tags, titles…) weight C.
CREATE FUNCTION svc_memory_document(content text, metadata jsonb) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN setweight(to_tsvector('english'::regconfig, content), 'A')
      || setweight(jsonb_to_tsvector('english'::regconfig, metadata, '["string"]'), 'C');

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

CREATE INDEX memories_document_fts ON memories
  USING gin (svc_memory_document(content, metadata)) WHERE valid_to IS NULL;
CREATE INDEX memories_content_trgm ON memories
  USING gin (content gin_trgm_ops) WHERE valid_to IS NULL;
CREATE INDEX memories_code_tokens ON memories
  USING gin (svc_code_tokens(content, metadata)) WHERE valid_to IS NULL AND svc_marks_code(metadata);

GRANT EXECUTE ON FUNCTION svc_memory_document(text, jsonb), svc_marks_code(jsonb), svc_code_tokens(text, jsonb) TO svc_app;
