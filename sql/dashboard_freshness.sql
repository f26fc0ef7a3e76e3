-- Per published source: page count and the oldest/newest fetched_at of its pages.
SELECT source, count(*) AS pages, min(fetched_at) AS oldest, max(fetched_at) AS newest
FROM pages
GROUP BY source
ORDER BY source
LIMIT $max_rows;
