-- One batch of sql/index_fts_docs.sql's documents: the chunks with $lo <= cid < $hi, in cid
-- order (index.py runs the batches in order; one statement over all chunks held every group's
-- sorted terms in memory at once and outgrew it at 1M chunks).
INSERT INTO fts_docs
WITH f AS (
    SELECT p.cid, p.field,
           string_agg(trim(repeat(p.term || ' ', p.tf)), ' ' ORDER BY p.term) AS txt
    FROM staged_postings p
    WHERE p.cid >= $lo AND p.cid < $hi
    GROUP BY p.cid, p.field
)
SELECT d.cid,
       coalesce(max(f.txt) FILTER (WHERE f.field = 'body'), '') AS body,
       coalesce(max(f.txt) FILTER (WHERE f.field = 'heading'), '') AS heading,
       coalesce(max(f.txt) FILTER (WHERE f.field = 'breadcrumb'), '') AS breadcrumb,
       coalesce(max(f.txt) FILTER (WHERE f.field = 'title'), '') AS title,
       coalesce(max(f.txt) FILTER (WHERE f.field = 'code'), '') AS code,
       coalesce(max(f.txt) FILTER (WHERE f.field = 'symbol'), '') AS symbol
FROM staged_docs d
LEFT JOIN f ON f.cid = d.cid
WHERE d.cid >= $lo AND d.cid < $hi
GROUP BY d.cid
ORDER BY d.cid;
