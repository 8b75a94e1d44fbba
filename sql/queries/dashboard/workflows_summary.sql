-- name: workflows_summary
-- description: Workflows (correlation ids with a root request or an outbound call) in a time range: how many, how many failed, their steps and failed steps; measured per-step reliability is 1 - total_failed_steps / total_steps.
SELECT
  count() AS workflows,
  countIf(failed) AS failed_workflows,
  sum(steps) AS total_steps,
  sum(failed_steps) AS total_failed_steps,
  sum(retries) AS total_retries,
  avg(steps) AS avg_steps
FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
WHERE (roots > 0 OR steps > 0)
