-- Pitfalls of the published index, optionally one library; paged. The pitfall's own sentence
-- when the extractor stored one, else its text.
SELECT id, source, library, version, kind, symbol,
       coalesce(nullif(sentence, ''), text) AS text, path, anchor, chunk_id
FROM pitfalls
WHERE ($library IS NULL OR library = $library)
ORDER BY library, version, kind, symbol, id
LIMIT $max_rows OFFSET $offset;
