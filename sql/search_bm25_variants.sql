-- Postings-BM25F candidates with stem variants (ScoringConfig.w_variant > 0); as
-- sql/search_bm25.sql, except that each branch (sql/search_bm25_variant_term.sql) reads a query
-- term together with its variants, and the term counts once per chunk, by its best-scoring
-- member (the term itself or one variant).
WITH p AS (
{branches}
),
per_qterm AS (
    SELECT cid, b, max(w * x * ($k1 + 1) / ($k1 + x)) AS s
    FROM (
        SELECT cid, b, idf * list_extract($weights, b + 1) AS w,
               $w_body * ntf_body + $w_heading * ntf_heading + $w_breadcrumb * ntf_breadcrumb
               + $w_title * ntf_title + $w_code * ntf_code + $w_symbol * ntf_symbol AS x
        FROM p
    )
    GROUP BY cid, b
),
scored AS (
    SELECT cid, sum(s) AS score, count(*) AS matched
    FROM per_qterm
    GROUP BY cid
),
top AS (
    SELECT cid, score, matched
    FROM scored
    {filter}
    ORDER BY score DESC, cid
    LIMIT $cap
)
SELECT t.cid, d.chunk_id, t.score, t.matched, d.source, d.path, d.anchor, d.heading, d.level,
       d.parent_id, d.has_code, d.library, d.version, d.summary
FROM top t
JOIN search_docs d ON d.cid = t.cid
ORDER BY t.score DESC, d.chunk_id;
