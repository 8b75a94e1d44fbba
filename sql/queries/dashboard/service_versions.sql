-- name: service_versions
-- description: Deploy markers: each service's service.version (ResourceAttributes of otel_traces, cut at 100 characters) per {bucket}-second bucket of [{from}, {to}), with the first span of that version in the bucket (first_seen_ms, epoch milliseconds) and the spans seen. The dashboard marks a deploy where a version appears in a bucket after a bucket of that service without it (a release, or a rollback); a version already running in the service's first bucket of the range is not marked, its deploy being before the range. No rollup holds versions, so this reads the range's spans only (ServiceName leads otel_traces' order: a service filter prunes by key), and only their service name, time and resource map. Filter: service ('' = all). At most 5000 rows, earliest first.
SELECT
  ServiceName AS service,
  substringUTF8(ResourceAttributes['service.version'], 1, 100) AS version,
  toUnixTimestamp(toStartOfInterval(Timestamp, toIntervalSecond({bucket:UInt32}))) AS t,
  toUnixTimestamp64Milli(min(Timestamp)) AS first_seen_ms,
  count() AS spans
FROM otel_traces
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ResourceAttributes['service.version'] != ''
GROUP BY service, version, t
ORDER BY t, service, first_seen_ms, version
LIMIT 5000
