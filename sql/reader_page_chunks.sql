-- A page's chunks in reading order (reader.get_doc). Params: $page_id, $max_rows.
SELECT * FROM chunks WHERE page_id = $page_id ORDER BY line_start, id LIMIT $max_rows;
