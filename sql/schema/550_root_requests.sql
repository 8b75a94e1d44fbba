-- The root requests of workflows_rollup's rows, one row per stored row that holds a root server span
-- (a request from outside), NOT merged by workflow: what budget_requests counts its successes from.
--   SELECT * FROM root_requests(from = '2026-01-31 09:00:00')
-- A request's count, weight and variance add up across a workflow's rows, so a request that
-- succeeded needs no merge: it is counted in the row that holds its root span, at that row's start
-- and under that row's entry service (faultline_entry_service_key, 540: the row's earliest root).
-- Merging every workflow of a 30-day period under FINAL (dashboard_workflows) cost the Overview's
-- budget more than the rest of its query, and each column it merged (the sampling weight among
-- them) added to that. A request's outcome does need the merge, but only where one of its
-- workflow's rows recorded a failed root: root_errors > 0 here. budget_requests merges just those
-- workflows, and counts from this view the rows of every other workflow, so each root is counted
-- once. A workflow with one root (nearly all) counts as dashboard_workflows counts it. One with
-- roots in rows the engine has not merged yet counts each root at its own row's start and entry
-- service, and at the workflow's once merged: the same requests either way, placed apart only
-- while a resubmission under the same correlation id is in a row of its own.
CREATE OR REPLACE VIEW root_requests AS
WITH toUInt64(toUInt32(packed_roots)) AS row_roots
SELECT
    workflow_key,
    faultline_entry_service_key(entry_key) AS entry_service_key,
    started_at AS started,
    row_roots AS roots,
    bitShiftRight(packed_roots, 32) AS root_errors,
    -- The requests the row's roots stand for under trace sampling (workflows_rollup.root_weight).
    root_weight AS request_weight,
    faultline_roots_variance(row_roots, root_weight) AS request_variance
FROM workflows_rollup
WHERE started_at >= {from:DateTime} AND row_roots > 0;
