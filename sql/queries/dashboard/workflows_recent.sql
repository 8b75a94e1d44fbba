-- name: workflows_recent
-- description: The newest workflows in a time range with their steps and outcome; failed_only = true keeps the failed ones. The newest keys are picked first from the cheap columns, then only those workflows are read whole (by primary key).
SELECT
  correlation_id,
  toUnixTimestamp(started) AS started,
  duration_ns,
  services,
  steps,
  failed_steps,
  retries,
  misrouted,
  failed,
  first_failure_class,
  first_failure_source,
  first_failure_code,
  first_failure_service
FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
WHERE workflow_key IN (
  SELECT workflow_key
  FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
  WHERE (roots > 0 OR steps > 0) AND (NOT {failed_only:Bool} OR failed)
    -- Failed only: just the workflows that may have failed are merged (workflows_first_failure
    -- finds them the same way); a constant false WHERE reads nothing otherwise.
    AND (NOT {failed_only:Bool} OR workflow_key IN (
      SELECT workflow_key FROM workflows_rollup
      WHERE {failed_only:Bool} AND started_at >= {from:DateTime}
        AND (bitShiftRight(packed_roots, 32) > 0 OR (toUInt32(packed_roots) = 0 AND last_call % 2 = 1))
    ))
  ORDER BY started DESC
  LIMIT {limit:UInt32}
)
ORDER BY started DESC, correlation_id
LIMIT {limit:UInt32}
