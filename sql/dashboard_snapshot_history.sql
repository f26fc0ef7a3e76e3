-- Every frozen snapshot row (history, for the freshness plot), with its row counts.
SELECT id, source, library, version, created_at, row_counts_json
FROM read_parquet($paths, union_by_name = true)
ORDER BY created_at, source, id
LIMIT $max_rows;
