-- The term statistics of postings-BM25 (from the TEMP tables of sql/index_stage.sql).
-- Average length of each field over ALL chunks (a chunk without the field has length 0).
CREATE TABLE bm25_fields AS
WITH lens AS (SELECT DISTINCT cid, field, doc_len FROM staged_postings)
SELECT field,
       greatest(sum(doc_len)::DOUBLE / (SELECT count(*) FROM staged_docs), 1e-9) AS avgdl
FROM lens
GROUP BY field
ORDER BY field;

-- Term dictionary: df = chunks holding the term in any field; Lucene-style non-negative idf.
-- (Two plain GROUP BYs rather than count(DISTINCT cid): those spill to disk, a DISTINCT
-- aggregate's sets do not, and at 1M chunks they outgrew memory.)
CREATE TABLE bm25_terms AS
WITH tc AS (SELECT term, cid FROM staged_postings GROUP BY term, cid),
     df AS (SELECT term, count(*) AS df FROM tc GROUP BY term),
     n AS (SELECT count(*)::DOUBLE AS n FROM staged_docs)
SELECT (row_number() OVER (ORDER BY term))::INTEGER AS term_id, term, df::INTEGER AS df,
       ln(1 + (n.n - df + 0.5) / (df + 0.5)) AS idf
FROM df, n
ORDER BY term_id;
