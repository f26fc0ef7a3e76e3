-- Top-level sections (heading level 1-2) of the given pages, in page order.
SELECT page_id, id AS chunk_id, heading, anchor, level, url
FROM chunks
WHERE page_id IN (SELECT unnest($page_ids)) AND level BETWEEN 1 AND 2 AND heading <> ''
ORDER BY page_id, line_start, id
LIMIT $max_rows;
