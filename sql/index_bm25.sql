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

-- Postings, one row per (term, chunk): per field the length-normalised term frequency of BM25F,
-- ntf = tf / (1 - b + b * len / avglen) (0 where the field lacks the term), with the term string
-- and its idf inline. Stored in term order, so a query's `term = $t` filter reads only the row
-- groups holding that term: no vocabulary lookup at query time. Field weights, the saturation
-- (k1) and query weights apply at query time (sql/search_bm25.sql). term_id follows term order.
CREATE TABLE bm25_postings AS
WITH n AS (
    SELECT p.term, d.cid, p.field,
           (p.tf / (1 - $b + $b * p.doc_len / f.avgdl))::FLOAT AS ntf
    FROM postings p
    JOIN search_docs d ON d.chunk_id = p.chunk_id
    JOIN bm25_fields f ON f.field = p.field
)
SELECT t.term, t.term_id, t.idf, n.cid,
       coalesce(max(n.ntf) FILTER (WHERE n.field = 'body'), 0)::FLOAT AS ntf_body,
       coalesce(max(n.ntf) FILTER (WHERE n.field = 'heading'), 0)::FLOAT AS ntf_heading,
       coalesce(max(n.ntf) FILTER (WHERE n.field = 'breadcrumb'), 0)::FLOAT AS ntf_breadcrumb,
       coalesce(max(n.ntf) FILTER (WHERE n.field = 'title'), 0)::FLOAT AS ntf_title,
       coalesce(max(n.ntf) FILTER (WHERE n.field = 'code'), 0)::FLOAT AS ntf_code,
       coalesce(max(n.ntf) FILTER (WHERE n.field = 'symbol'), 0)::FLOAT AS ntf_symbol
FROM n
JOIN bm25_terms t ON t.term = n.term
GROUP BY t.term, t.term_id, t.idf, n.cid
ORDER BY t.term, n.cid;
