-- name: workflows_summary
-- description: Workflows (correlation ids with a root request or an outbound call) in a time range: how many, how many failed, their steps and failed steps; measured per-step reliability is 1 - total_failed_steps / total_steps. Each workflow counts for what it stands for under trace sampling (workflow_weight: its root's 1/p; 1 without a root), so the figures are estimates of all workflows, not counts of the stored ones.
SELECT
  sum(workflow_weight) AS workflows,
  sumIf(workflow_weight, failed) AS failed_workflows,
  sum(workflow_weight * steps) AS total_steps,
  sum(workflow_weight * failed_steps) AS total_failed_steps,
  sum(workflow_weight * retries) AS total_retries,
  if(workflows = 0, 0, total_steps / workflows) AS avg_steps
FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
WHERE (roots > 0 OR steps > 0)
