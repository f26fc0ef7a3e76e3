-- Libraries (and their versions) present in the index, for filter validation.
SELECT library, list(DISTINCT version ORDER BY version) AS versions
FROM search_docs
GROUP BY library
ORDER BY library;
