-- name: budget_requests
-- description: The entry service's requests (the root server span of each workflow) per entry service, and the failed ones by the class of the workflow's first failure (its first-hand cause; '' = the request succeeded), in the selected range, the burn-rate windows ending at {to} and the SLO period.
SELECT
  service,
  class,
  countIf(started >= {from:DateTime}) AS range_requests,
  countIf(started >= {to:DateTime} - INTERVAL 5 MINUTE) AS requests_5m,
  countIf(started >= {to:DateTime} - INTERVAL 30 MINUTE) AS requests_30m,
  countIf(started >= {to:DateTime} - INTERVAL 1 HOUR) AS requests_1h,
  countIf(started >= {to:DateTime} - INTERVAL 6 HOUR) AS requests_6h,
  countIf(started >= {to:DateTime} - INTERVAL 3 DAY) AS requests_3d,
  countIf(started >= {period_from:DateTime}) AS period_requests,
  toUnixTimestamp(min(started)) AS first_seen
FROM (
  -- The requests that succeeded need no first failure: the merge of that string for every
  -- workflow costs more than the rest of this query, so it is read for the failed ones only.
  SELECT entry_service AS service, '' AS class, started
  FROM dashboard_workflows(from = least({period_from:DateTime}, {from:DateTime}), to = {to:DateTime}, service = {service:String})
  WHERE roots > 0 AND NOT failed
    AND ({service:String} = '' OR entry_service = {service:String})
  UNION ALL
  -- The failed ones: only the workflows that may have failed are merged, found without the merge
  -- as workflows_first_failure finds them; WHERE failed then decides on the merged workflow.
  SELECT
    entry_service AS service,
    if(first_failure_class = '', 'unclassified', first_failure_class) AS class,
    started
  FROM dashboard_workflows(from = least({period_from:DateTime}, {from:DateTime}), to = {to:DateTime}, service = {service:String})
  WHERE roots > 0 AND failed
    AND ({service:String} = '' OR entry_service = {service:String})
    AND workflow_key IN (
      SELECT workflow_key FROM workflows_rollup
      WHERE started_at >= least({period_from:DateTime}, {from:DateTime})
        AND (bitShiftRight(packed_roots, 32) > 0 OR (toUInt32(packed_roots) = 0 AND last_call % 2 = 1))
    )
)
GROUP BY service, class
ORDER BY service, class
