-- Counts under sampling (issue 29): where a range holds no sampled row, its weights are all 1 and
-- the workflow panels need not read them: a weight column is one more column for workflows_rollup
-- FINAL to merge (the pages bench prints the panels both ways). This table keeps the minutes in
-- which a rollup stored a row standing for other than itself, by kind:
--   workflows   a workflows_rollup row whose root requests weigh other than their count
--               (root_weight != root_count: a sampled root, or one exported only as a failure's path)
-- The named query workflows_sampled asks it once per page render or alert evaluation: "any such
-- minute at or after the range's start?" (collector/src/budget/workflows-sampled.ts). Its answer is
-- the `sampled` parameter of the queries that sum workflow weights (workflows_by_steps,
-- budget_requests, …): where it is false they count roots and 1s and never read a weight; where
-- it is true they read the weights, so the figures are the same either way. A workflow's rows
-- start no earlier than the workflow (its started_at is their minimum), so a minute at or after
-- the range's start is enough to find it. It was a scalar subquery of dashboard_workflows (540)
-- once: the engine ran it for every query of the view, even those that read no weight, and the
-- weights it folded to constants still cost the panels their arithmetic.
-- One row per kind and minute (a few per minute of sampled traffic); it expires with the rows
-- (FAULTLINE_TTL_DAYS, TTL_COLUMNS in sql/src/ddl/ttl-days.ts), and a minute left behind only has a
-- query read weights that are 1.
CREATE TABLE IF NOT EXISTS sampled_minutes (
    kind LowCardinality(String),
    minute DateTime
) ENGINE = ReplacingMergeTree()
ORDER BY (kind, minute);

CREATE MATERIALIZED VIEW IF NOT EXISTS sampled_minutes_workflows_mv TO sampled_minutes AS
SELECT 'workflows' AS kind, toStartOfMinute(started_at) AS minute
FROM workflows_rollup
WHERE root_weight != toFloat64(root_count)
GROUP BY minute;
