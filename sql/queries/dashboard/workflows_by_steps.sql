-- name: workflows_by_steps
-- description: End-to-end success of workflows grouped by their number of steps (the compounding: more steps, lower success).
SELECT
  steps,
  count() AS workflows,
  countIf(NOT failed) AS succeeded,
  sum(failed_steps) AS total_failed_steps
FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
WHERE (roots > 0 OR steps > 0)
GROUP BY steps
ORDER BY steps
