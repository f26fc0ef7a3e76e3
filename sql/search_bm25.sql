-- Postings-BM25 candidates (core SQL, no extension).
-- $terms: analysed query terms; $w_<field>: field weights; $library/$version: NULL = any;
-- $cap: row cap. Returns chunk_id, score, matched (distinct query terms found).
WITH qt AS (
    SELECT t.term_id
    FROM bm25_terms t
    WHERE t.term IN (SELECT unnest($terms::VARCHAR[]))
),
scored AS (
    SELECT p.cid,
           sum(p.w * CASE p.field
                         WHEN 'body' THEN $w_body
                         WHEN 'heading' THEN $w_heading
                         WHEN 'breadcrumb' THEN $w_breadcrumb
                         WHEN 'title' THEN $w_title
                         WHEN 'code' THEN $w_code
                         WHEN 'symbol' THEN $w_symbol
                         ELSE 0 END) AS score,
           count(DISTINCT p.term_id) AS matched
    FROM bm25_postings p
    WHERE p.term_id IN (SELECT term_id FROM qt)
    GROUP BY p.cid
)
SELECT d.chunk_id, s.score, s.matched
FROM scored s
JOIN search_docs d ON d.cid = s.cid
WHERE ($library IS NULL OR d.library = $library)
  AND ($version IS NULL OR d.version = $version)
ORDER BY s.score DESC, d.chunk_id
LIMIT $cap;
