-- One frozen table of one snapshot (columns a later schema adds are read when present).
SELECT * FROM read_parquet($path, union_by_name = true);
