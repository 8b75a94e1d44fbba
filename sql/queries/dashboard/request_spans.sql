-- name: request_spans
-- description: Every span of one request across services, found by correlation id or trace id (oldest first, at most 501: a page shows 500 and says there are more), with its envelope attributes and redacted raw detail, and what names the call (call: method and path, statement head, RPC, messaging or tool names, dependency); long texts cut to 2,000 characters with their full length beside (the full value: SELECT the attribute by span_id). The request's time window comes first from the workflows_rollup and otel_traces_trace_id_ts lookups (both sorted by id), so only that window of otel_traces is read. Whether a failed span is first-hand: request_first_hand, over the window these rows span.
WITH
  (SELECT (min(started_at), max(ended_ns)) FROM workflows_rollup WHERE workflow_key = cityHash64({id:String}) AND correlation_id = {id:String}) AS by_correlation,
  (SELECT (min(Start), max(End)) FROM otel_traces_trace_id_ts WHERE TraceId = {id:String}) AS by_trace,
  by_correlation.2 > 0 AS correlation_found,
  by_trace.2 > toDateTime(0) AS trace_found,
  -- An id found by neither lookup gives a window that starts after it ends: no part is read.
  least(
    if(correlation_found, toUnixTimestamp64Nano(by_correlation.1), toInt64(9e18)),
    if(trace_found, toInt64(toUnixTimestamp(by_trace.1)) * 1000000000, toInt64(9e18))
  ) AS window_start_ns,
  greatest(
    if(correlation_found, toInt64(by_correlation.2), toInt64(0)),
    -- End is the last span's start truncated to the second.
    if(trace_found, (toInt64(toUnixTimestamp(by_trace.2)) + 1) * 1000000000, toInt64(0))
  ) AS window_end_ns
SELECT
  toUnixTimestamp64Nano(Timestamp) AS start_ns,
  Duration AS duration_ns,
  substringUTF8(ServiceName, 1, 200) AS service,
  substringUTF8(SpanName, 1, 500) AS span,
  SpanKind AS kind,
  TraceId AS trace_id,
  SpanId AS span_id,
  ParentSpanId AS parent_span_id,
  StatusCode AS status,
  substringUTF8(StatusMessage, 1, 2000) AS status_message,
  substringUTF8(SpanAttributes['faultline.correlation_id'], 1, 1024) AS correlation_id,
  SpanAttributes['faultline.class'] AS class,
  SpanAttributes['faultline.source'] AS source,
  substringUTF8(SpanAttributes['faultline.code'], 1, 200) AS code,
  substringUTF8(SpanAttributes['faultline.message'], 1, 2000) AS message,
  lengthUTF8(SpanAttributes['faultline.message']) AS message_length,
  SpanAttributes['faultline.retryable'] AS retryable,
  SpanAttributes['faultline.retry_after'] AS retry_after,
  SpanAttributes['faultline.attempt'] AS attempt,
  SpanAttributes['faultline.misrouted_retry'] AS misrouted_retry,
  substringUTF8(SpanAttributes['faultline.raw'], 1, 2000) AS raw,
  lengthUTF8(SpanAttributes['faultline.raw']) AS raw_length,
  -- 'transport' or 'checkout': part of another call, never a failure row of its own (005).
  faultline_call_role(SpanName, SpanAttributes, StatusCode) AS call_role,
  -- What the tree names the call by (the page builds the label: span-call-name.ts), each part
  -- bounded: the HTTP method and the path alone (never the query string, fragment, host or
  -- credentials of url.full / http.url / http.target), the route, the statement's head (its first
  -- 300 characters; the page keeps its first words), RPC, messaging and tool names, and the
  -- dependency as the rollups name it (faultline_call_dependency, 006).
  mapFilter((k, v) -> v != '', map(
    'method', substringUTF8(if(SpanAttributes['http.request.method'] != '', SpanAttributes['http.request.method'], SpanAttributes['http.method']), 1, 20),
    'path', substringUTF8(replaceRegexpOne(multiIf(
        SpanAttributes['url.path'] != '', SpanAttributes['url.path'],
        SpanAttributes['http.target'] != '', path(SpanAttributes['http.target']),
        SpanAttributes['url.full'] != '', path(SpanAttributes['url.full']),
        path(SpanAttributes['http.url'])), '[?#].*', ''), 1, 500),
    'route', substringUTF8(SpanAttributes['http.route'], 1, 500),
    'db.summary', substringUTF8(SpanAttributes['db.query.summary'], 1, 200),
    'db.operation', substringUTF8(if(SpanAttributes['db.operation.name'] != '', SpanAttributes['db.operation.name'], SpanAttributes['db.operation']), 1, 100),
    'db.collection', substringUTF8(multiIf(
        SpanAttributes['db.collection.name'] != '', SpanAttributes['db.collection.name'],
        SpanAttributes['db.sql.table'] != '', SpanAttributes['db.sql.table'],
        SpanAttributes['db.mongodb.collection']), 1, 200),
    'db.statement', substringUTF8(if(SpanAttributes['db.query.text'] != '', SpanAttributes['db.query.text'], SpanAttributes['db.statement']), 1, 300),
    'rpc.service', substringUTF8(SpanAttributes['rpc.service'], 1, 200),
    'rpc.method', substringUTF8(SpanAttributes['rpc.method'], 1, 200),
    'messaging.operation', substringUTF8(if(SpanAttributes['messaging.operation.name'] != '', SpanAttributes['messaging.operation.name'], SpanAttributes['messaging.operation']), 1, 100),
    'messaging.destination', substringUTF8(multiIf(
        SpanAttributes['messaging.destination.temporary'] = 'true', '(temporary)',
        SpanAttributes['messaging.destination.name'] != '', SpanAttributes['messaging.destination.name'],
        SpanAttributes['messaging.destination.template']), 1, 200),
    'tool', substringUTF8(if(SpanAttributes['gen_ai.tool.name'] != '', SpanAttributes['gen_ai.tool.name'], SpanAttributes['ai.toolCall.name']), 1, 200),
    'dependency', faultline_call_dependency(SpanKind, SpanAttributes)
  )) AS call
FROM otel_traces
WHERE Timestamp >= fromUnixTimestamp64Nano(window_start_ns)
  AND Timestamp <= fromUnixTimestamp64Nano(window_end_ns)
  AND (TraceId = {id:String} OR SpanAttributes['faultline.correlation_id'] = {id:String})
ORDER BY Timestamp
LIMIT 501
