-- A page with its Markdown (reader.read_page_resource). Params: $page_id.
SELECT id, source, library, version, url, path, title, markdown, content_hash, fetched_at,
       security_annotations, truncated, truncation_reason, snapshot
FROM pages WHERE id = $page_id LIMIT 1;
