-- Postings-BM25F candidates (core SQL, no extension).
-- $terms: analysed query terms; $w_<field>: field weights; $k1: saturation;
-- $library/$version: NULL = any; $cap: row cap. Returns chunk_id, score, matched, source, path, anchor.
-- BM25F: per chunk and term, x = sum over fields of w_field * ntf (length-normalised tf);
-- score = sum over terms of idf * x * (k1 + 1) / (k1 + x).
WITH qt AS (
    SELECT t.term_id, t.idf
    FROM bm25_terms t
    WHERE t.term IN (SELECT unnest($terms::VARCHAR[]))
),
per_term AS (
    SELECT p.cid, p.term_id,
           sum(p.ntf * CASE p.field
                           WHEN 'body' THEN $w_body
                           WHEN 'heading' THEN $w_heading
                           WHEN 'breadcrumb' THEN $w_breadcrumb
                           WHEN 'title' THEN $w_title
                           WHEN 'code' THEN $w_code
                           WHEN 'symbol' THEN $w_symbol
                           ELSE 0 END) AS x
    FROM bm25_postings p
    WHERE p.term_id IN (SELECT term_id FROM qt)
    GROUP BY p.cid, p.term_id
),
scored AS (
    SELECT pt.cid, sum(qt.idf * pt.x * ($k1 + 1) / ($k1 + pt.x)) AS score, count(*) AS matched
    FROM per_term pt
    JOIN qt ON qt.term_id = pt.term_id
    GROUP BY pt.cid
)
SELECT d.chunk_id, s.score, s.matched, d.source, d.path, d.anchor
FROM scored s
JOIN search_docs d ON d.cid = s.cid
WHERE ($library IS NULL OR d.library = $library)
  AND ($version IS NULL OR d.version = $version)
ORDER BY s.score DESC, d.chunk_id
LIMIT $cap;
