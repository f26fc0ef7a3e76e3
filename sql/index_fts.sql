-- Build the FTS-extension index over the chunks (from sql/index_stage.sql's TEMP tables; the
-- FTS extension loaded).
-- The documents are the pipeline's analysed terms (one column per field, each term repeated
-- tf times), so the FTS backend sees exactly the tokens the postings backend sees; the FTS
-- tokenizer is therefore told not to stem, stop, lowercase or strip anything.
CREATE TABLE fts_docs AS
WITH f AS (
    SELECT p.cid, p.field,
           string_agg(trim(repeat(p.term || ' ', p.tf)), ' ' ORDER BY p.term) AS txt
    FROM staged_postings p
    GROUP BY p.cid, p.field
)
SELECT d.cid,
       coalesce(max(f.txt) FILTER (WHERE f.field = 'body'), '') AS body,
       coalesce(max(f.txt) FILTER (WHERE f.field = 'heading'), '') AS heading,
       coalesce(max(f.txt) FILTER (WHERE f.field = 'breadcrumb'), '') AS breadcrumb,
       coalesce(max(f.txt) FILTER (WHERE f.field = 'title'), '') AS title,
       coalesce(max(f.txt) FILTER (WHERE f.field = 'code'), '') AS code,
       coalesce(max(f.txt) FILTER (WHERE f.field = 'symbol'), '') AS symbol
FROM staged_docs d
LEFT JOIN f ON f.cid = d.cid
GROUP BY d.cid
ORDER BY d.cid;

PRAGMA create_fts_index('fts_docs', 'cid', 'body', 'heading', 'breadcrumb', 'title', 'code', 'symbol',
                        stemmer = 'none', stopwords = 'none', ignore = '\s+',
                        strip_accents = 0, lower = 0, overwrite = 1);

-- match_bm25 semi-joins the query's term ids against this table: stored in termid order,
-- the join skips most row groups (PERFORMANCE-NOTES.md, "cheap fix": 3.6x at 100k chunks).
CREATE TABLE fts_main_fts_docs.terms_sorted AS
SELECT * FROM fts_main_fts_docs.terms ORDER BY termid, docid;

DROP TABLE fts_main_fts_docs.terms;

ALTER TABLE fts_main_fts_docs.terms_sorted RENAME TO terms;
