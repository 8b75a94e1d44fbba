-- name: workflows_first_failure
-- description: Where failed workflows first went wrong: the earliest first-hand failing call (or a server's own rejection) of each failed workflow, by service, class, source and code. The earliest is the one that ended first among failures not already known to be echoes: an echo ends after what it echoes. Each failed workflow counts for what it stands for under trace sampling (workflow_weight, 540: 1 for a failed root the preload kept). {sampled} is workflows_sampled's answer for {from}: where it is false no workflow of the range was sampled, every weight is 1 and none is read.
SELECT
  if(first_failure_class = '', 'none recorded', first_failure_class) AS first_class,
  first_failure_service AS first_service,
  first_failure_source AS first_source,
  first_failure_code AS first_code,
  sum(if({sampled:Bool}, workflow_weight, 1.0)) AS failed_workflows
FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
-- Only the workflows that may have failed are merged (by primary key, PREWHERE), so the merge
-- never carries the first-failure string of the others. A workflow failed when its root failed, or
-- without a root when its last call did (dashboard_workflows, 530): then one of its partial rows
-- holds a failed root, or is rootless with its last call failed (the row holding the workflow's
-- last call). Those rows are found without the merge; a partial row starts no earlier than its
-- workflow. The WHERE failed below then decides on the merged workflow.
WHERE failed AND workflow_key IN (
  SELECT workflow_key FROM workflows_rollup
  WHERE started_at >= {from:DateTime}
    AND (bitShiftRight(packed_roots, 32) > 0 OR (toUInt32(packed_roots) = 0 AND last_call % 2 = 1))
)
GROUP BY first_class, first_service, first_source, first_code
ORDER BY failed_workflows DESC, first_class, first_service, first_source, first_code
