-- The per-chunk tables, written last with small row groups (index.py: LOOKUP_ROW_GROUP), so a
-- search's hit rows and its join to search_docs read only the row groups holding them.
-- chunks: stored in id order. search_docs: one integer id per chunk (cid) with the filter
-- columns and what re-ranking reads; cid = the chunk's rowid + 1, so the rows of a hit are
-- fetched by rowid (sql/search_hits.sql), and cid order is chunk id order (ties break alike).
-- The staged postings are used up (sql/index_bm25.sql ran before): their memory back.
DROP TABLE staged_postings;

CREATE TABLE chunks AS
SELECT * FROM staged_chunks ORDER BY id;

CREATE TABLE search_docs AS
SELECT (c.rowid + 1)::INTEGER AS cid, d.chunk_id, d.library, d.version, d.source, d.path,
       d.anchor, d.heading, d.level, d.parent_id, d.has_code, d.summary
FROM chunks c
JOIN staged_docs d ON d.chunk_id = c.id
ORDER BY cid;

-- Every id of the staged postings must be the same chunk's cid here (the postings tables were
-- built from staged_docs); error() aborts the build otherwise.
SELECT CASE WHEN count(*) > 0 THEN error('index build: chunk rowids do not follow id order') END
FROM search_docs s
JOIN staged_docs d ON d.chunk_id = s.chunk_id
WHERE d.cid <> s.cid;
