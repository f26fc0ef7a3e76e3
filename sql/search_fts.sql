-- FTS-extension candidates. $q: the analysed query terms joined by spaces (safe text: only
-- [a-z0-9_.] tokens); $heading_weight: weight of the heading/title/breadcrumb-only score;
-- $library/$version: NULL = any; $cap: row cap. Returns cid, chunk_id, score, source, path,
-- anchor, heading, level, parent_id, has_code, library, version.
WITH s AS (
    SELECT cid,
           fts_main_fts_docs.match_bm25(cid, $q) AS s_all,
           fts_main_fts_docs.match_bm25(cid, $q, fields := 'heading,title,breadcrumb') AS s_head
    FROM fts_docs
)
SELECT d.cid, d.chunk_id, s.s_all + $heading_weight * coalesce(s.s_head, 0) AS score,
       d.source, d.path, d.anchor, d.heading, d.level, d.parent_id, d.has_code, d.library,
       d.version
FROM s
JOIN search_docs d ON d.cid = s.cid
WHERE s.s_all IS NOT NULL
  AND ($library IS NULL OR d.library = $library)
  AND ($version IS NULL OR d.version = $version)
ORDER BY score DESC, d.chunk_id
LIMIT $cap;
