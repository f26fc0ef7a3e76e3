-- Build the postings-BM25 structures of a search index from the `postings` and `chunks` tables.
-- Parameter: $b (BM25 length normalisation of the scoring config; baked into ntf).
-- search_docs: one integer id (cid) per chunk (chunks are stored in id order, so cid - 1 is
-- the chunk's row), with the filter columns and what re-ranking reads (heading, level, parent,
-- whether the chunk holds code).
CREATE TABLE search_docs AS
SELECT (row_number() OVER (ORDER BY id))::INTEGER AS cid,
       id AS chunk_id, library, version, source, path, anchor,
       coalesce(heading, '') AS heading, coalesce(level, 0)::INTEGER AS level,
       coalesce(parent_id, '') AS parent_id,
       (coalesce(len(code_blocks), 0) > 0) AS has_code
FROM chunks
ORDER BY cid;

-- Average length of each field over ALL chunks (a chunk without the field has length 0).
CREATE TABLE bm25_fields AS
WITH lens AS (SELECT DISTINCT p.chunk_id, p.field, p.doc_len
              FROM postings p SEMI JOIN search_docs d ON d.chunk_id = p.chunk_id)
SELECT field,
       greatest(sum(doc_len)::DOUBLE / (SELECT count(*) FROM search_docs), 1e-9) AS avgdl
FROM lens
GROUP BY field
ORDER BY field;

-- Term dictionary: df = chunks holding the term in any field; Lucene-style non-negative idf.
CREATE TABLE bm25_terms AS
WITH df AS (SELECT p.term, count(DISTINCT p.chunk_id) AS df
            FROM postings p SEMI JOIN search_docs d ON d.chunk_id = p.chunk_id
            GROUP BY p.term),
     n AS (SELECT count(*)::DOUBLE AS n FROM search_docs)
SELECT (row_number() OVER (ORDER BY term))::INTEGER AS term_id, term, df::INTEGER AS df,
       ln(1 + (n.n - df + 0.5) / (df + 0.5)) AS idf
FROM df, n
ORDER BY term_id;

-- Per-posting length-normalised term frequency of BM25F, ntf = tf / (1 - b + b * len / avglen),
-- sorted by term so that a query's term_id filter skips most row groups. Field weights, the
-- saturation (k1) and idf apply at query time (sql/search_bm25.sql).
CREATE TABLE bm25_postings AS
SELECT t.term_id, d.cid, p.field, p.tf,
       (p.tf / (1 - $b + $b * p.doc_len / f.avgdl))::FLOAT AS ntf
FROM postings p
JOIN bm25_terms t ON t.term = p.term
JOIN search_docs d ON d.chunk_id = p.chunk_id
JOIN bm25_fields f ON f.field = p.field
ORDER BY t.term_id, d.cid, p.field;
