-- name: budget_requests
-- description: The entry service's requests (the root server span of each workflow, weighted by what it stands for under trace sampling: request_weight) per entry service, and the failed ones by the class of the workflow's first failure (its first-hand cause; '' = the request succeeded), in the selected range, in each burn-rate window ending at {to} (requests_windows, one count per window of {windows_s}, in seconds, as budget_calls) and over the SLO period. Every stored workflow counts here: where the preload counted minutes of the period in process (budget_exact_requests has rows), readRequestBudgetRows (collector/src/budget/budget-reads.ts) runs budget_requests_beside_exact instead. {sampled} is workflows_sampled's answer for the earlier of {period_from} and {from}: where it is false no workflow of the period was sampled, each root counts 1 and no weight is read. range_variance is the variance of the estimate (the panels' ±x% at 95% is 1.96 × sqrt(variance) / requests). The requests that succeeded are read from root_requests (550), one row per stored row that holds a root, without merging the workflows; the failed ones from dashboard_workflows, merged.
SELECT
  n.service AS service,
  r.class AS class,
  r.range_requests AS range_requests,
  r.requests_windows AS requests_windows,
  r.period_requests AS period_requests,
  r.range_variance AS range_variance,
  r.first_seen AS first_seen,
  r.last_seen AS last_seen
FROM (
  -- Each request's whole second, once per row, for the windows below.
  WITH toUInt32(toUnixTimestamp(started)) AS started_s
  SELECT
    service_key,
    class,
    sumIf(weight, started >= {from:DateTime}) AS range_requests,
    -- Each window's start in whole seconds, compared with each request's whole second: the same
    -- test as started >= to - w ({to} is whole seconds), without DateTime64 arithmetic per row.
    sumForEach(arrayMap(t -> if(started_s >= t, weight, 0.0),
      arrayMap(w -> toUInt32(toUnixTimestamp({to:DateTime})) - w, {windows_s:Array(UInt32)}))) AS requests_windows,
    sumIf(weight, started >= {period_from:DateTime}) AS period_requests,
    -- The estimate's variance (dashboard_workflows' request_variance, 540).
    sumIf(variance, started >= {from:DateTime}) AS range_variance,
    toUnixTimestamp(min(started)) AS first_seen,
    -- The end of the minute of the last request stored: the observed time ends there.
    toUnixTimestamp(toStartOfMinute(max(started))) + 60 AS last_seen
  FROM (
    -- The requests that succeeded, unmerged (root_requests, 550): every root of a workflow none of
    -- whose rows recorded a failed root, where and when its row says, by the entry service's hash
    -- (named once per service below). The first failure is read for the failed ones only.
    SELECT entry_service_key AS service_key, '' AS class, started, if({sampled:Bool}, request_weight, toFloat64(roots)) AS weight,
      if({sampled:Bool}, request_variance, 0.0) AS variance
    FROM root_requests(from = least({period_from:DateTime}, {from:DateTime}))
    WHERE started < {to:DateTime}
      AND ({service:String} = '' OR entry_service_key = cityHash64({service:String}))
      AND workflow_key NOT IN (
        SELECT workflow_key FROM root_requests(from = least({period_from:DateTime}, {from:DateTime})) WHERE root_errors > 0)
    UNION ALL
    -- The failed ones: the workflows with a failed root in any row, the set the branch above leaves
    -- out, merged (a root request's outcome: dashboard_workflows' failed, given roots > 0, is
    -- root_failed, a failed root in any of its rows), so that each is counted at its start, under
    -- its entry service and the class of its first failure.
    SELECT
      entry_service_key AS service_key,
      if(first_failure_class = '', 'unclassified', first_failure_class) AS class,
      started,
      if({sampled:Bool}, request_weight, toFloat64(roots)) AS weight,
      if({sampled:Bool}, request_variance, 0.0) AS variance
    FROM dashboard_workflows(from = least({period_from:DateTime}, {from:DateTime}), to = {to:DateTime}, service = {service:String})
    WHERE roots > 0 AND root_failed
      AND ({service:String} = '' OR entry_service_key = cityHash64({service:String}))
      AND workflow_key IN (
        SELECT workflow_key FROM root_requests(from = least({period_from:DateTime}, {from:DateTime})) WHERE root_errors > 0)
  )
  GROUP BY service_key, class
) AS r
-- Every service of a workflow is in service_names (540), its entry service among them; LEFT, so
-- that a request is never dropped (a service not named yet, before 540's backfill, shows as '').
LEFT JOIN (
  SELECT service_key, any(service) AS service FROM service_names GROUP BY service_key
) AS n ON n.service_key = r.service_key
ORDER BY service, class
