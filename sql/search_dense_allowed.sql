-- Chunks a library/version filter allows, for the dense half of hybrid search.
-- $library, $version: the filter values (NULL = any).
SELECT cid
FROM search_docs
WHERE ($library IS NULL OR library = $library)
  AND ($version IS NULL OR version = $version)
ORDER BY cid;
