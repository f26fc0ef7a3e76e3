-- Postings-BM25F candidates (core SQL, no extension).
-- {branches}: bm25.py puts here one copy of sql/search_bm25_term.sql per query term, joined by
-- UNION ALL (only the branch number {i} is substituted; every value is a bound parameter).
-- Per branch: $term_<i>, the analysed term. $weights: per branch the term's query weight
-- (1 = typed, less = expansion); $w_<field>: field weights; $k1: saturation;
-- {filter}: sql/search_bm25_filter.sql when a library or version is given, else nothing;
-- $cap: row cap. Returns cid, chunk_id, score, matched, source, path,
-- anchor, heading, level, parent_id, has_code, library, version, summary, best first.
-- BM25F: per chunk and term, x = sum over fields of w_field * ntf (length-normalised tf);
-- score = sum over terms of weight * idf * x * (k1 + 1) / (k1 + x). Only the top $cap chunks
-- are joined to search_docs.
WITH p AS (
{branches}
),
scored AS (
    SELECT cid, sum(w * x * ($k1 + 1) / ($k1 + x)) AS score, count(*) AS matched
    FROM (
        SELECT cid, idf * list_extract($weights, b + 1) AS w,
               $w_body * ntf_body + $w_heading * ntf_heading + $w_breadcrumb * ntf_breadcrumb
               + $w_title * ntf_title + $w_code * ntf_code + $w_symbol * ntf_symbol AS x
        FROM p
    )
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
