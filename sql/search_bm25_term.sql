-- One branch of sql/search_bm25.sql / search_bm25_variants.sql: the postings of one term
-- ($term_{i}); {i} is the branch number. The filter on the term-sorted column reads only the
-- row groups holding the term.
SELECT cid, {i} AS b, idf, ntf_body, ntf_heading, ntf_breadcrumb, ntf_title, ntf_code, ntf_symbol
FROM bm25_postings
WHERE term = $term_{i}
