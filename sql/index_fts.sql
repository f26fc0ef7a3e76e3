-- Build the FTS-extension index over fts_docs (sql/index_fts_docs.sql; the extension loaded).
PRAGMA create_fts_index('fts_docs', 'cid', 'body', 'heading', 'breadcrumb', 'title', 'code', 'symbol',
                        stemmer = 'none', stopwords = 'none', ignore = '\s+',
                        strip_accents = 0, lower = 0, overwrite = 1);

-- match_bm25 semi-joins the query's term ids against this table: stored in termid order,
-- the join skips most row groups (PERFORMANCE-NOTES.md, "cheap fix": 3.6x at 100k chunks).
CREATE TABLE fts_main_fts_docs.terms_sorted AS
SELECT * FROM fts_main_fts_docs.terms ORDER BY termid, docid;

DROP TABLE fts_main_fts_docs.terms;

ALTER TABLE fts_main_fts_docs.terms_sorted RENAME TO terms;
