-- name: seed_alerts
-- description: Synthetic spans for the alert-evaluation benchmark (collector/bench/alerts.bench.mjs), generated inside the engine: {spans} spans spread evenly over the {window_s} seconds before {end}, round-robin over {services} services (svc-000 …). Per service, every fifth span is a server span and the four after it its outbound calls in the same trace. The first {burning} services burn: one call in four fails, 3 of 4 of those rate_limit from sdk (ThrottlingException), the rest transient from http (503). The others are healthy: one span in 1,000 a transient http 503. The last {new_code_services} services also fail with a code they never had before, permanent from db (42P01), on one span in 50 of the last 30 minutes. Feeds otel_traces, so the failures, calls_1m and failure_codes_1m materialized views fill as in production.
INSERT INTO otel_traces (
  Timestamp, TraceId, SpanId, ParentSpanId, TraceState, SpanName, SpanKind, ServiceName,
  ResourceAttributes, ScopeName, ScopeVersion, SpanAttributes, Duration, StatusCode, StatusMessage
)
WITH
  number % {services:UInt32} AS s,
  intDiv(number, {services:UInt32}) AS k,
  intDiv(k, 5) AS trace_no,
  k % 5 = 0 AS server,
  intDiv(number * {window_s:UInt64}, {spans:UInt64}) AS age_s,
  concat('svc-', leftPad(toString(s), 3, '0')) AS svc,
  s < {burning:UInt32} AS burning,
  s >= {services:UInt32} - {new_code_services:UInt32} AS new_code,
  multiIf(
    server, '',
    burning AND k % 5 = 1, if(trace_no % 4 = 3, 'transient', 'rate_limit'),
    NOT burning AND k % 1000 = 3, 'transient',
    new_code AND age_s < 1800 AND k % 50 = 4, 'permanent',
    ''
  ) AS cls,
  cls != '' AS failed,
  multiIf(
    cls = 'rate_limit', 'sdk',
    cls = 'transient', 'http',
    cls = 'permanent', 'db',
    ['http', 'db', 'sdk', 'rpc'][k % 5]
  ) AS src,
  multiIf(cls = 'rate_limit', 'ThrottlingException', cls = 'transient', '503', cls = 'permanent', '42P01', '') AS code,
  lower(hex(cityHash64(toUInt64(s), toUInt64(trace_no), {end:DateTime}))) AS trace_lo
SELECT
  toDateTime64({end:DateTime}, 9) - toIntervalNanosecond(toInt64(intDiv(number * {window_s:UInt64} * 1000000, {spans:UInt64})) * 1000),
  concat(trace_lo, trace_lo),
  lower(hex(cityHash64(toUInt64(number), {end:DateTime}))),
  if(server, '', lower(hex(cityHash64(toUInt64(trace_no * 5 * {services:UInt32} + s), {end:DateTime})))),
  '',
  if(server, 'POST /checkout', multiIf(src = 'http', 'GET /v1/charges', src = 'db', 'SELECT orders', src = 'sdk', 'DynamoDB.PutItem', 'grpc.Inventory/Reserve')),
  if(server, 'Server', 'Client'),
  svc,
  map('service.name', svc),
  '@faultline/bench',
  '0.1.0',
  if(server,
    map('faultline.correlation_id', concat(svc, '-wf-', toString(trace_no))),
    mapFilter((key, val) -> val != '', map(
      'faultline.source', src,
      'faultline.correlation_id', concat(svc, '-wf-', toString(trace_no)),
      'faultline.class', cls,
      'faultline.code', code,
      'faultline.message', if(failed, concat(cls, ' failure from ', src, ' (', code, ')'), ''),
      'faultline.retryable', if(failed, if(cls IN ('rate_limit', 'transient'), 'true', 'false'), ''),
      'faultline.retry_after', if(cls = 'rate_limit', '2', '')
    ))),
  1000000 + (number % 997) * 10000,
  if(failed, 'Error', 'Unset'),
  if(failed, 'failed', '')
FROM numbers({spans:UInt64})
