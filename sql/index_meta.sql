-- Facts about how an index was built; search checks the analyzer version against its own.
CREATE TABLE index_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);

INSERT INTO index_meta VALUES
    ('publish_id', $publish_id),
    ('schema_version', $schema_version),
    ('analyzer_version', $analyzer_version),
    ('scoring_version', $scoring_version),
    ('index_format', $index_format),
    ('k1', $k1),
    ('b', $b);

CHECKPOINT;
