-- Endpoint rows whose path template matches a concrete path ($path): each {param} stands for
-- one non-empty segment part, every other character is literal. $method filters when given.
-- Used by docorbit_serve.api.endpoints for ``docorbit api METHOD PATH``.
SELECT id, path, length(regexp_replace(path, '\{[^}/]*\}', '', 'g')) AS literal_chars
FROM endpoints
WHERE ($library IS NULL OR library = $library)
  AND ($version IS NULL OR version = $version)
  AND ($method IS NULL OR method = $method)
  AND NOT webhook
  AND regexp_full_match(
        $path,
        regexp_replace(
            regexp_replace(path, '([.+*?()|\[\]^$\\])', '\\\1', 'g'),
            '\{[^}/]*\}', '[^/]+', 'g'))
ORDER BY literal_chars DESC, path, method, id
LIMIT $limit;
