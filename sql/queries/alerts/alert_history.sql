-- name: alert_history
-- description: Alert transitions (fired, resolved) newest first, with the class and the burn rates over the long and short windows, for the Alerts page.
SELECT
  toUnixTimestamp64Milli(at) AS at_ms,
  alert_key,
  alertname,
  service,
  severity,
  class,
  state,
  toUnixTimestamp64Milli(started_at) AS started_ms,
  burn_long,
  burn_short,
  summary
FROM alert_events
ORDER BY at DESC
LIMIT {limit:UInt32}
