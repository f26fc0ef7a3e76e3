-- Stage the inputs of an index build in TEMP tables (connection memory, spilled to disk by
-- DuckDB when large; never in the index file). Needs `chunks_in` (every chunk, conformed Arrow)
-- and `postings_in` (a view over the frozen postings Parquet files), `summaries_in` (chunk_id,
-- summary: the chunk's opening terms, analyze.summary_terms, space-joined). staged_chunks: the chunks in id order. staged_docs: one integer id per
-- chunk (cid = its position in id order, 1..n) with the filter columns and what re-ranking
-- reads. staged_postings: the postings with that integer id instead of the chunk id string, so
-- every later step joins on integers (postings of chunks that are not in the index drop out).
CREATE TEMP TABLE staged_chunks AS
SELECT * FROM chunks_in ORDER BY id;

CREATE TEMP TABLE staged_docs AS
SELECT (row_number() OVER (ORDER BY id))::INTEGER AS cid,
       id AS chunk_id, library, version, source, path, anchor,
       coalesce(heading, '') AS heading, coalesce(level, 0)::INTEGER AS level,
       coalesce(parent_id, '') AS parent_id,
       (coalesce(len(code_blocks), 0) > 0) AS has_code,
       coalesce(s.summary, '') AS summary
FROM staged_chunks
LEFT JOIN summaries_in s ON s.chunk_id = staged_chunks.id
ORDER BY cid;

CREATE TEMP TABLE staged_postings AS
SELECT d.cid, p.field, p.term, p.tf, p.doc_len
FROM postings_in p
JOIN staged_docs d ON d.chunk_id = p.chunk_id;
