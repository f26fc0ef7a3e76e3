-- Pitfalls of the published index, optionally one library; paged.
SELECT id, source, library, version, kind, symbol, text, path, anchor, chunk_id
FROM pitfalls
WHERE ($library IS NULL OR library = $library)
ORDER BY library, version, kind, symbol, id
LIMIT $max_rows OFFSET $offset;
