-- name: workflows_by_steps_stored
-- description: workflows_by_steps counting each stored workflow once, whatever it stands for under trace sampling: where workflows_sampled says no workflow of the range was sampled every weight is 1, and this is workflows_by_steps without the weights' cost. The weights' sums cost workflows_by_steps more even where they fold to the constant 1 (the engine does not turn sum(1.) into count(); the pages bench prints both), so the Workflows page reads this then (workflow-data.ts); the parity test holds the two equal on unsampled workflows (sql/test/counting/workflow-weight.test.ts).
SELECT
  steps,
  count() AS workflows,
  countIf(NOT failed) AS succeeded,
  sum(failed_steps) AS total_failed_steps,
  sum(retries) AS total_retries
FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
WHERE (roots > 0 OR steps > 0)
GROUP BY steps
ORDER BY steps
