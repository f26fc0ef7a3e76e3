-- The search_docs columns re-ranking and section grouping read, for the dense half's chunks.
-- $cids: integer chunk ids.
SELECT cid, chunk_id, source, path, anchor, heading, level, parent_id, has_code, library, version
FROM search_docs
WHERE cid IN (SELECT unnest($cids::INTEGER[]));
