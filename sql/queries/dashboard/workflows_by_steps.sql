-- name: workflows_by_steps
-- description: End-to-end success of workflows grouped by their number of steps (the compounding: more steps, lower success), with each group's failed steps and retries: summed over the groups they are workflows_summary, which the Workflows page derives from these rows instead of merging the workflows a second time. Each workflow counts for what it stands for under trace sampling (workflow_weight, 540). The Workflows page reads workflows_by_steps_stored instead where workflows_sampled says no workflow of the range was sampled (collector/src/budget/workflows-sampled.ts).
SELECT
  steps,
  sum(workflow_weight) AS workflows,
  sumIf(workflow_weight, NOT failed) AS succeeded,
  sum(workflow_weight * failed_steps) AS total_failed_steps,
  sum(workflow_weight * retries) AS total_retries
FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
WHERE (roots > 0 OR steps > 0)
GROUP BY steps
ORDER BY steps
