-- Pages and chunks per source in the published index (reader.list_sources). Params: $max_rows.
SELECT 'pages' AS tbl, source, count(*) AS n FROM pages GROUP BY source
UNION ALL
SELECT 'chunks' AS tbl, source, count(*) AS n FROM chunks GROUP BY source
ORDER BY tbl, source
LIMIT $max_rows;
