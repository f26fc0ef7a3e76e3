-- Build facts of an index (see index_meta.sql).
SELECT key, value FROM index_meta ORDER BY key;
