-- Pitfalls and examples of given chunks (the sections search found for a task), and examples
-- whose section heading is one of $headings ("METHOD /path": the code samples of a packed
-- endpoint on its spec page), for the API part of an implementation-context pack.
SELECT 'pitfall' AS what, f.id, f.chunk_id, f.library, f.version, f.path, f.anchor, f.snapshot,
       f.kind AS label, coalesce(nullif(f.sentence, ''), f.text) AS body, '' AS language
FROM pitfalls f
WHERE list_contains($chunk_ids, f.chunk_id)
UNION ALL
SELECT 'example' AS what, e.id, e.chunk_id, e.library, e.version, e.path, e.anchor, e.snapshot,
       e.heading AS label, e.code AS body, e.language
FROM examples e
WHERE (list_contains($chunk_ids, e.chunk_id) OR list_contains($headings, e.heading))
  AND NOT coalesce(e.missing_code, false)
ORDER BY what DESC, id
LIMIT $limit;
