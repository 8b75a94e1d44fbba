-- name: seed
-- description: Synthetic spans for the dashboard benchmark, generated inside the engine: {spans} spans spread evenly over the {window_s} seconds before {end}, one in ten a classified failure on an outbound call, one in five a server span. Feeds otel_traces, so the failures, calls_1m and dependency_calls_1m materialized views fill as in production; calls name their dependency.
INSERT INTO otel_traces (
  Timestamp, TraceId, SpanId, ParentSpanId, TraceState, SpanName, SpanKind, ServiceName,
  ResourceAttributes, ScopeName, ScopeVersion, SpanAttributes, Duration, StatusCode, StatusMessage
)
WITH
  number % 10 = 1 AS failed,
  number % 5 = 0 AS server,
  ['checkout', 'payments', 'inventory', 'notifications', 'search', 'auth', 'ledger', 'shipping'][number % 8 + 1] AS svc,
  ['http', 'db', 'sdk', 'rpc'][intDiv(number, 10) % 4 + 1] AS src,
  ['validation', 'authentication', 'rate_limit', 'transient', 'permanent'][intDiv(number, 40) % 5 + 1] AS cls,
  multiIf(
    src = 'db', ['23505', '28P01', '53300', '40P01', '42P01'][indexOf(['validation', 'authentication', 'rate_limit', 'transient', 'permanent'], cls)],
    src = 'sdk', ['ValidationException', 'ExpiredTokenException', 'ThrottlingException', 'ServiceUnavailable', 'ResourceNotFoundException'][indexOf(['validation', 'authentication', 'rate_limit', 'transient', 'permanent'], cls)],
    src = 'rpc', ['3', '16', '8', '14', '12'][indexOf(['validation', 'authentication', 'rate_limit', 'transient', 'permanent'], cls)],
    ['400', '401', '429', '503', '404'][indexOf(['validation', 'authentication', 'rate_limit', 'transient', 'permanent'], cls)]
  ) AS code,
  cls IN ('rate_limit', 'transient') AS retryable,
  lower(hex(cityHash64(intDiv(number, 5), {end:DateTime}))) AS trace_lo
SELECT
  toDateTime64({end:DateTime}, 9) - toIntervalNanosecond(toInt64(intDiv(number * {window_s:UInt64} * 1000000, {spans:UInt64})) * 1000),
  concat(trace_lo, trace_lo),
  lower(hex(cityHash64(number, {end:DateTime}))),
  if(server, '', lower(hex(cityHash64(intDiv(number, 5) * 5, {end:DateTime})))),
  '',
  if(server, 'POST /checkout', ['GET /v1/charges', 'SELECT orders', 'DynamoDB.PutItem', 'grpc.Inventory/Reserve'][intDiv(number, 10) % 4 + 1]),
  if(server, 'Server', 'Client'),
  svc,
  map('service.name', svc),
  '@faultline/bench',
  '0.1.0',
  if(server,
    map('faultline.correlation_id', concat('wf-', toString(intDiv(number, 5)))),
    mapFilter((k, v) -> v != '', map(
      'faultline.source', src,
      'faultline.correlation_id', concat('wf-', toString(intDiv(number, 5))),
      'faultline.class', if(failed, cls, ''),
      'faultline.code', if(failed, code, ''),
      'faultline.message', if(failed, concat(cls, ' failure from ', src, ' (', code, ')'), ''),
      'faultline.retryable', if(failed, if(retryable, 'true', 'false'), ''),
      'faultline.retry_after', if(failed AND cls = 'rate_limit', '2', ''),
      'faultline.attempt', if(number % 20 = 11, '2', ''),
      'faultline.misrouted_retry', if(failed AND NOT retryable AND number % 200 = 11, 'true', ''),
      -- What each call calls (faultline_dependency): two hosts, two databases, DynamoDB, one gRPC service.
      'server.address', if(src = 'http', ['api.stripe.com', 'api.example.com'][number % 2 + 1], ''),
      'db.system.name', if(src = 'db', 'postgresql', ''),
      'db.namespace', if(src = 'db', ['shop', 'ledger'][number % 2 + 1], ''),
      'rpc.system', multiIf(src = 'sdk', 'aws-api', src = 'rpc', 'grpc', ''),
      'rpc.service', multiIf(src = 'sdk', 'DynamoDB', src = 'rpc', 'shop.Inventory', ''),
      'rpc.method', multiIf(src = 'sdk', 'PutItem', src = 'rpc', 'Reserve', '')
    ))),
  1000000 + (number % 997) * 10000,
  if(failed, 'Error', 'Unset'),
  if(failed, 'failed', '')
FROM numbers({spans:UInt64})
