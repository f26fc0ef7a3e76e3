-- Pitfall rows (explicit traps with their evidence sentence) for find_pitfall, with the URL of
-- their page; optionally of one library/version. Bounded by $limit (caller flags truncation).
SELECT f.id, f.source, f.library, f.version, f.chunk_id, f.page_id, f.kind, f.sentence,
       f.text, f.heading, f.symbols, f.endpoints, f.path, f.anchor, f.snapshot,
       coalesce(p.url, '') AS url
FROM pitfalls f
LEFT JOIN pages p ON p.id = f.page_id
WHERE ($library IS NULL OR f.library = $library)
  AND ($version IS NULL OR f.version = $version)
ORDER BY f.library, f.version, f.path, f.id
LIMIT $limit;
