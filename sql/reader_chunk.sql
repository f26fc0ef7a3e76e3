-- One chunk by id (reader.get_doc). Params: $chunk_id.
SELECT * FROM chunks WHERE id = $chunk_id LIMIT 1;
