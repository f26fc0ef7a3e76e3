-- Every chunk of an index, in cid order, with what its vector is made from (lib/vectors.py).
SELECT d.cid, d.chunk_id, c.snapshot, c.title, c.breadcrumb, c.heading, c.text
FROM search_docs d
JOIN chunks c ON c.id = d.chunk_id
ORDER BY d.cid;
