-- name: workflows_recent
-- description: The newest workflows in a time range with their steps and outcome; failed_only = true keeps the failed ones. The newest keys are picked first from the cheap columns, then only those workflows are read whole (by primary key).
-- Picking the newest keys merged every workflow of the range (2M at 10M spans) to sort them by
-- start. Without failed_only they are first sought among the workflows that started at or after a
-- cut-off (newest_from): the oldest start of the newest {limit} * 8 partial rows of the range. Each
-- such workflow has a partial row in [newest_from, to) (the one its start comes from), so it is
-- merged whole by primary key, and any workflow left out started before the cut-off: if {limit}
-- of them qualify, no workflow outside them is newer. That holds whatever the cut-off is; the
-- cut-off only decides how many qualify. Otherwise (few rows, or long workflows that started
-- earlier) every workflow of the range is merged, as before; the scalar newest_suffice is a
-- constant by then, so the branch not taken reads nothing.
-- With a service filter the cut-off counts only rows carrying that service's bit (a necessary
-- condition; the view applies the exact rule): among the newest rows of every service a rarer one
-- had too few, so the range was merged. A partial row carries only its own batch's services, so a
-- workflow's first row may lack the bit that a later row has. The candidates are the workflows
-- with a row in [newest_from, to) that has the bit or belongs to a workflow with a row that has it
-- from {to} on. Every qualifying workflow is one: it has a row with the bit (it involves the
-- service), which started at or after the workflow did (so after the cut-off); if before {to},
-- that row is in [newest_from, to) itself, otherwise the workflow's first row is. Either way it is
-- merged whole by key. Ranges ending now have almost no rows from {to} on.
WITH
  (SELECT min(started_at) FROM (
    SELECT started_at FROM workflows_rollup
    WHERE NOT {failed_only:Bool} AND started_at >= {from:DateTime} AND started_at < {to:DateTime}
      AND ({service:String} = '' OR bitTest(service_bits, cityHash64({service:String}) % 64))
    ORDER BY started_at DESC
    LIMIT {limit:UInt32} * 8
  )) AS newest_from,
  (SELECT groupArray(workflow_key) FROM (
    SELECT workflow_key
    FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
    WHERE NOT {failed_only:Bool} AND (roots > 0 OR steps > 0) AND started >= newest_from
      AND workflow_key IN (
        SELECT workflow_key FROM workflows_rollup
        WHERE NOT {failed_only:Bool} AND started_at >= newest_from AND started_at < {to:DateTime}
          AND ({service:String} = '' OR bitTest(service_bits, cityHash64({service:String}) % 64)
               OR workflow_key IN (
                 SELECT workflow_key FROM workflows_rollup
                 WHERE NOT {failed_only:Bool} AND {service:String} != '' AND started_at >= {to:DateTime}
                   AND bitTest(service_bits, cityHash64({service:String}) % 64)))
      )
    ORDER BY started DESC
    LIMIT {limit:UInt32}
  )) AS newest_keys,
  NOT {failed_only:Bool} AND length(newest_keys) = {limit:UInt32} AS newest_suffice
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
  SELECT arrayJoin(newest_keys) WHERE newest_suffice
  UNION ALL
  SELECT workflow_key
  FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
  WHERE NOT newest_suffice
    AND (roots > 0 OR steps > 0) AND (NOT {failed_only:Bool} OR failed)
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
