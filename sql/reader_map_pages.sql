-- Pages of the documentation map in (source, path) order (reader.documentation_map).
-- Params: $library, $version, $source (NULL = any), $max_rows, $offset.
SELECT id, source, library, version, url, path, title, count(*) OVER () AS total
FROM pages
WHERE ($library IS NULL OR library = $library)
  AND ($version IS NULL OR version = $version)
  AND ($source IS NULL OR source = $source)
ORDER BY source, path, id
LIMIT $max_rows OFFSET $offset;
