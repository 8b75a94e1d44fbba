-- name: workflows_summary
-- description: Workflows (correlation ids with a root request or an outbound call) in a time range: how many, how many failed, their steps and failed steps; measured per-step reliability is 1 - total_failed_steps / total_steps. Each workflow counts for what it stands for under trace sampling (workflow_weight: its root's 1/p; 1 without a root), so the figures are estimates of all workflows, not counts of the stored ones. {sampled} is workflows_sampled's answer for {from}: where it is false no workflow of the range was sampled, every weight is 1 and none is read.
WITH if({sampled:Bool}, workflow_weight, 1.0) AS weight
SELECT
  sum(weight) AS workflows,
  sumIf(weight, failed) AS failed_workflows,
  sum(weight * steps) AS total_steps,
  sum(weight * failed_steps) AS total_failed_steps,
  sum(weight * retries) AS total_retries,
  if(workflows = 0, 0, total_steps / workflows) AS avg_steps
FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
WHERE (roots > 0 OR steps > 0)
