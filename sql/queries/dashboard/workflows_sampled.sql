-- name: workflows_sampled
-- description: Whether any workflow that started at or after {from} may stand for other than itself under trace sampling (a minute of sampled_minutes, 535): the `sampled` parameter of the queries that sum workflow weights (workflows_first_failure, workflows_matching, workflows_matching_total, budget_requests, budget_requests_beside_exact), which read no weight where it is false; where it is false the Workflows page reads workflows_by_steps_stored for workflows_by_steps. Asked once per page render and alert evaluation (collector/src/budget/workflows-sampled.ts); passing sampled = true to those queries is always right, only slower.
SELECT count() > 0 AS sampled
FROM sampled_minutes
WHERE kind = 'workflows' AND minute >= toStartOfMinute({from:DateTime})
