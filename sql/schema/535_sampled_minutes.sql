-- Counts under sampling (issue 29): where a range holds no sampled row, its weights are all 1 and
-- the workflow panels need not read them: a weight column is one more column for workflows_rollup
-- FINAL to merge (the pages bench prints the panels both ways). This table keeps the minutes in
-- which a rollup stored a row standing for other than itself, by kind:
--   workflows   a workflows_rollup row whose root requests weigh other than their count
--               (root_weight != root_count: a sampled root, or one exported only as a failure's path)
-- dashboard_workflows (540) asks it first, as a scalar subquery the engine folds to a constant
-- before it reads: "any such minute at or after the range's start?" When none, the weight is the
-- constant 1 and its column is not read at all; when any, the weights are read as before, so the
-- figures are the same either way. A workflow's rows start no earlier than the workflow (its
-- started_at is their minimum), so a minute at or after the range's start is enough to find it.
-- One row per kind and minute (a few per minute of sampled traffic); it expires with the rows
-- (FAULTLINE_TTL_DAYS, TTL_COLUMNS in sql/src/ddl/ttl-days.ts), and a minute left behind only has a
-- view read weights that are 1.
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
