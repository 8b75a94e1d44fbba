-- name: service_last_seen
-- description: When each service last sent anything in [{from}, {to}): last_seen_s is the end of the last minute holding any of its counted spans (calls_1m: CLIENT and SERVER spans and the spans the preload tagged, successes included) or of the calls the preload counted in process (call_counts_1m), in epoch seconds. Read from the two minute rollups, never from otel_traces, so every page can say "no data since …" cheaply; the alert evaluator marks a service's alerts stale when this is FAULTLINE_ALERT_STALE_AFTER_S old.
SELECT
  service,
  toUnixTimestamp(max(last_minute)) + 60 AS last_seen_s
FROM (
  SELECT ServiceName AS service, max(minute) AS last_minute
  FROM calls_1m
  WHERE minute >= {from:DateTime} AND minute < {to:DateTime} AND calls > 0
  GROUP BY service
  UNION ALL
  SELECT ServiceName AS service, max(minute) AS last_minute
  FROM call_counts_1m
  WHERE minute >= {from:DateTime} AND minute < {to:DateTime} AND calls > 0
  GROUP BY service
)
WHERE service != ''
GROUP BY service
ORDER BY service
