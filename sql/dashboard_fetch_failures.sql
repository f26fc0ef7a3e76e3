-- Failed fetches (ok = false) of the given frozen fetches files, with their typed error codes.
SELECT source, url, status, error_code, error_message, fetched_at
FROM read_parquet($paths, union_by_name = true)
WHERE NOT ok
ORDER BY source, url
LIMIT $max_rows;
