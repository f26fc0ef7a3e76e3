-- Page metadata without its Markdown (reader.get_doc). Params: $page_id.
SELECT id, source, library, version, url, path, title, content_hash, fetched_at,
       security_annotations, truncated, truncation_reason
FROM pages WHERE id = $page_id LIMIT 1;
