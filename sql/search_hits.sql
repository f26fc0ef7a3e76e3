-- Full rows of the candidate chunks. $ids: chunk ids.
SELECT c.id AS chunk_id, c.library, c.version, c.source, c.url, c.path, c.title, c.heading,
       c.anchor, c.breadcrumb, c.tokens, c.snapshot, c.text, c.security_annotations
FROM chunks c
WHERE c.id IN (SELECT unnest($ids::VARCHAR[]));
