-- The idf of the given terms (re-ranking's opening factor, scoring.rerank); terms the index
-- does not hold are absent. $terms: the analysed query terms.
SELECT term, idf
FROM bm25_terms
WHERE term IN (SELECT unnest($terms::VARCHAR[]))
ORDER BY term;
