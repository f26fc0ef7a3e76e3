-- fetched_at of the given chunks (provenance shown beside search hits).
SELECT id, fetched_at
FROM chunks
WHERE id IN (SELECT unnest($ids))
LIMIT $max_rows;
