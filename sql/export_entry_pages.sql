-- Entry points of one source: its pages ranked by how many links of the source point at them,
-- then by path (deterministic), with the page's top-level sections.
SELECT p.id, p.path, p.title, p.url, coalesce(l.inbound, 0) AS inbound
FROM pages p
LEFT JOIN (
    SELECT target_page_id, count(*) AS inbound
    FROM links
    WHERE source = $source AND target_page_id <> ''
    GROUP BY target_page_id
) l ON l.target_page_id = p.id
WHERE p.source = $source
ORDER BY inbound DESC, p.path
LIMIT $max_rows;
