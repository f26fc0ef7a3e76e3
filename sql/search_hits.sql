-- Full rows of the hit chunks. $rows: their rowids in `chunks` (cid - 1: search_docs.cid is the
-- chunk's rowid + 1, sql/index_docs.sql). A rowid filter reads only the row groups holding them.
SELECT c.rowid + 1 AS cid, c.id AS chunk_id, c.library, c.version, c.source, c.url, c.path,
       c.title, c.heading, c.anchor, c.breadcrumb, c.tokens, c.snapshot, c.text,
       c.security_annotations, c.fetched_at
FROM chunks c
WHERE c.rowid IN (SELECT unnest($rows::BIGINT[]));
