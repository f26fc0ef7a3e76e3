-- The library/version filter of sql/search_bm25.sql and search_bm25_variants.sql (put in their
-- {filter} place only when a filter is given). $library/$version: NULL = any.
WHERE cid IN (SELECT cid FROM search_docs
              WHERE ($library IS NULL OR library = $library)
                AND ($version IS NULL OR version = $version))
