-- Endpoint rows of the published index for API intelligence (docorbit_serve.api.endpoints),
-- optionally of one library and version; bounded by $limit (the caller flags truncation).
SELECT id, source, library, version, method, path, operation_id, summary, description,
       deprecated, deprecation_note, webhook, tags, parameters_json, request_body_json,
       responses_json, security_json, servers, pagination, spec_url, spec_version, pointer,
       page_id, chunk_id, snapshot
FROM endpoints
WHERE ($library IS NULL OR library = $library)
  AND ($version IS NULL OR version = $version)
ORDER BY library, version, path, method, id
LIMIT $limit;
