-- One branch of sql/search_bm25_variants.sql: the postings of query term $term_{i} and of its
-- stem variants, the terms in [$lo_{i}, $hi_{i}) (bm25.py: the variant prefix's range, or just
-- the term itself); a variant's idf is scaled by $w_variant. {i} is the branch number.
SELECT cid, {i} AS b,
       idf * CASE WHEN term = $term_{i} THEN 1.0 ELSE $w_variant END AS idf,
       ntf_body, ntf_heading, ntf_breadcrumb, ntf_title, ntf_code, ntf_symbol
FROM bm25_postings
WHERE term >= $lo_{i} AND term < $hi_{i}
