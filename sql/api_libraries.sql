-- Libraries and versions that hold API rows or documentation, for filter validation.
SELECT library, list(DISTINCT version ORDER BY version) AS versions
FROM (
    SELECT library, version FROM endpoints
    UNION ALL SELECT library, version FROM examples
    UNION ALL SELECT library, version FROM pitfalls
    UNION ALL SELECT library, version FROM sources
)
GROUP BY library
ORDER BY library;
