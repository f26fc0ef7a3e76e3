-- The postings of postings-BM25 (from sql/index_stage.sql's TEMP tables and the term
-- statistics of sql/index_bm25_terms.sql). Parameter: $b (BM25 length normalisation of the
-- scoring config; baked into ntf).
-- One row per (term, chunk): per field the length-normalised term frequency of BM25F,
-- ntf = tf / (1 - b + b * len / avglen) (0 where the field lacks the term), with the term string
-- and its idf inline. Stored in term order, so a query's `term = $t` filter reads only the row
-- groups holding that term: no vocabulary lookup at query time. Field weights, the saturation
-- (k1) and query weights apply at query time (sql/search_bm25.sql). term_id follows term order.
CREATE TABLE bm25_postings AS
WITH n AS (
    SELECT p.term, p.cid, p.field,
           (p.tf / (1 - $b + $b * p.doc_len / f.avgdl))::FLOAT AS ntf
    FROM staged_postings p
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
