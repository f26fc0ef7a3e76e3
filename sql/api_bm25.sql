-- BM25F over the term table of a set of API rows (endpoints, examples or pitfalls), ranked by
-- docorbit_serve.api.rank. The caller registers on its cursor:
--   api_terms(doc, field, term, tf, len)   one row per row-field-term (len = field length)
--   api_fields(field, w, avglen)           field weights and average field lengths
-- Parameters: $terms (query terms), $qweights (a weight per query term, same order), $n (rows
-- in the set), $k1, $b, $limit. Returns per matching row: score, the distinct query terms it
-- matched, and their summed query weight.
WITH q AS (
    SELECT unnest($terms) AS term, unnest($qweights) AS qw
), hits AS (
    SELECT t.doc, t.term, t.field, t.tf, t.len
    FROM api_terms t
    JOIN q USING (term)
), df AS (
    SELECT term, count(DISTINCT doc) AS df
    FROM hits
    GROUP BY term
), per_term AS (
    SELECT h.doc, h.term,
           sum(f.w * h.tf / (1 - $b + $b * h.len / greatest(f.avglen, 1.0))) AS wtf
    FROM hits h
    JOIN api_fields f USING (field)
    GROUP BY h.doc, h.term
)
SELECT p.doc,
       sum(q.qw * ln(1 + ($n - df.df + 0.5) / (df.df + 0.5)) * p.wtf * ($k1 + 1)
           / (p.wtf + $k1)) AS score,
       list(p.term ORDER BY p.term) AS matched,
       sum(q.qw) AS matched_weight
FROM per_term p
JOIN df USING (term)
JOIN q USING (term)
GROUP BY p.doc
ORDER BY score DESC, p.doc
LIMIT $limit;
