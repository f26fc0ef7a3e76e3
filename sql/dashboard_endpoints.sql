-- OpenAPI endpoints of the published index, optionally one library; paged.
SELECT id, source, library, version, method, path, operation_id, summary, deprecated, tags,
       spec_url
FROM endpoints
WHERE ($library IS NULL OR library = $library)
ORDER BY library, version, path, method, id
LIMIT $max_rows OFFSET $offset;
