-- name: alert_deliveries
-- description: Delivery outcomes per receiver (alertmanager, webhook) newest first: a failing receiver shows here with its status and error.
SELECT
  toUnixTimestamp64Milli(at) AS at_ms,
  alert_key,
  receiver,
  state,
  ok,
  attempts,
  status,
  error
FROM alert_deliveries
ORDER BY at DESC
LIMIT {limit:UInt32}
