-- name: slowest_failures
-- description: The slowest failed calls in a window, with their envelope and ids to open the request: timeouts that held threads while they failed. Empty service = all services.
SELECT
    Timestamp,
    ServiceName AS service,
    SpanName AS operation,
    source,
    class,
    code,
    message,
    round(Duration / 1e6, 3) AS duration_ms,
    correlation_id,
    TraceId
FROM failures
WHERE Timestamp >= {from:DateTime64(3)} AND Timestamp < {to:DateTime64(3)}
  AND ({service:String} = '' OR ServiceName = {service:String})
ORDER BY Duration DESC, Timestamp
LIMIT {limit:UInt32}
