-- Section headings of some pages, in reading order (reader.documentation_map).
-- Params: $page_ids (list of page ids), $max_rows.
SELECT page_id, id, heading, anchor, level, tokens
FROM chunks
WHERE list_contains($page_ids, page_id)
ORDER BY page_id, line_start, id
LIMIT $max_rows;
