-- Postings-BM25F candidates (core SQL, no extension).
-- $terms: analysed query terms; $qweights: their weights (same order; 1 = typed, less =
-- expansion); $prefixes: per term a prefix ('' = none) whose other vocabulary terms count as
-- variants of it (verify/verification) at $w_variant times its weight; $w_<field>: field weights; $k1: saturation;
-- $library/$version: NULL = any; $cap: row cap. Returns chunk_id, score, matched, source, path, anchor,
-- heading, level, parent_id, has_code, library, version.
-- BM25F: per chunk and term, x = sum over fields of w_field * ntf (length-normalised tf);
-- score = sum over terms of idf * x * (k1 + 1) / (k1 + x).
WITH q AS (
    SELECT unnest($terms::VARCHAR[]) AS term, unnest($qweights::DOUBLE[]) AS qw,
           unnest($prefixes::VARCHAR[]) AS pfx, unnest(range(len($terms::VARCHAR[]))) AS qi
),
qt AS (
    SELECT q.qi, t.term_id, t.idf * q.qw AS idf
    FROM bm25_terms t
    JOIN q ON t.term = q.term
    UNION ALL
    SELECT q.qi, t.term_id, t.idf * q.qw * $w_variant AS idf
    FROM bm25_terms t
    JOIN (SELECT * FROM q WHERE pfx <> '') q
      ON starts_with(t.term, q.pfx) AND t.term <> q.term
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
per_qterm AS (
    -- a query term and its variants count once per chunk: the best-scoring one
    SELECT pt.cid, qt.qi, max(qt.idf * pt.x * ($k1 + 1) / ($k1 + pt.x)) AS s
    FROM per_term pt
    JOIN qt ON qt.term_id = pt.term_id
    GROUP BY pt.cid, qt.qi
),
scored AS (
    SELECT cid, sum(s) AS score, count(*) AS matched
    FROM per_qterm
    GROUP BY cid
)
SELECT d.chunk_id, s.score, s.matched, d.source, d.path, d.anchor, d.heading, d.level,
       d.parent_id, d.has_code, d.library, d.version
FROM scored s
JOIN search_docs d ON d.cid = s.cid
WHERE ($library IS NULL OR d.library = $library)
  AND ($version IS NULL OR d.version = $version)
ORDER BY s.score DESC, d.chunk_id
LIMIT $cap;
