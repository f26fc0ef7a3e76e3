-- The publication an index file belongs to (reader: ids read on the same cursor as the data).
SELECT value FROM index_meta WHERE key = 'publish_id';
