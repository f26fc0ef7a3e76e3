-- Example rows (fenced code blocks) for find_example, with the URL of their page; optionally of
-- one library/version, language and framework. Bounded by $limit (caller flags truncation).
SELECT e.id, e.source, e.library, e.version, e.chunk_id, e.page_id, e.language, e.code,
       e.heading, e.path, e.anchor, e.tokens, e.framework, e.symbols, e.endpoints,
       e.missing_code, e.snapshot, coalesce(p.url, '') AS url
FROM examples e
LEFT JOIN pages p ON p.id = e.page_id
WHERE ($library IS NULL OR e.library = $library)
  AND ($version IS NULL OR e.version = $version)
ORDER BY e.library, e.version, e.path, e.id
LIMIT $limit;
