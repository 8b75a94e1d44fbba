-- name: workflows_by_steps
-- description: End-to-end success of workflows grouped by their number of steps (the compounding: more steps, lower success), with each group's failed steps and retries: summed over the groups they are workflows_summary, which the Workflows page derives from these rows instead of merging the workflows a second time. Each workflow counts for what it stands for under trace sampling (workflow_weight, 540). {sampled} is workflows_sampled's answer for {from}: where it is false no workflow of the range was sampled, every weight is 1 and none is read.
WITH if({sampled:Bool}, workflow_weight, 1.0) AS weight
SELECT
  steps,
  sum(weight) AS workflows,
  sumIf(weight, NOT failed) AS succeeded,
  sum(weight * failed_steps) AS total_failed_steps,
  sum(weight * retries) AS total_retries
FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
WHERE (roots > 0 OR steps > 0)
GROUP BY steps
ORDER BY steps
