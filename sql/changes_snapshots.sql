-- Every frozen snapshot row under home/tables/snapshots (one file per source and snapshot).
SELECT id, source, library, version, kind, location, created_at
FROM read_parquet($paths, union_by_name = true)
ORDER BY source, created_at, id;
