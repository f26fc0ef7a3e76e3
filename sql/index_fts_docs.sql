-- The documents of the FTS-extension index: the pipeline's analysed terms, one column per field,
-- each term repeated tf times, so the FTS backend sees exactly the tokens the postings backend
-- sees (the FTS tokenizer is therefore told not to stem, stop, lowercase or strip anything).
-- Filled by sql/index_fts_batch.sql, then indexed by sql/index_fts.sql.
CREATE TABLE fts_docs (
    cid INTEGER,
    body VARCHAR,
    heading VARCHAR,
    breadcrumb VARCHAR,
    title VARCHAR,
    code VARCHAR,
    symbol VARCHAR
);
