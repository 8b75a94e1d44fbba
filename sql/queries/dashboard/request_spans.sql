-- name: request_spans
-- description: Every span of one request across services, found by correlation id or trace id (oldest first, at most 501: a page shows 500 and says there are more), with its envelope attributes and redacted raw detail, and the raw attributes the page names the call by (call_attributes: only the keys its method and path, statement head, RPC, messaging and tool names and dependency are built from, each cut to 2,000 characters); long texts cut to 2,000 characters with their full length beside (the full value: SELECT the attribute by span_id). The request's time window comes first from the workflows_rollup and otel_traces_trace_id_ts lookups (both sorted by id), so only that window of otel_traces is read. Whether a failed span is first-hand: request_first_hand, over the window these rows span.
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
  -- The attributes that name the call, raw, and only these keys (each value cut to 2,000
  -- characters): the page builds the call's fields from them (callFieldsOf, span-call-name.ts) —
  -- method and path alone (the query string, fragment, host and credentials of url.full /
  -- http.url / http.target are cut there, on the server, before anything is rendered), route,
  -- statement head, RPC, messaging and tool names, each bounded, and the dependency as the rollups
  -- name it (callDependencyOf, the TypeScript twin of faultline_call_dependency, 006). Building
  -- them here cost the engine's analysis of that expression and of the UDF on every request,
  -- however few its rows; this filter costs next to nothing (the pages bench prints the panel
  -- beside its query of 6a861fe).
  mapApply((k, v) -> (k, substringUTF8(v, 1, 2000)), mapFilter((k, v) -> has([
      'http.request.method', 'http.method', 'url.path', 'http.target', 'url.full', 'http.url',
      'http.route', 'url.template', 'server.address', 'server.port', 'net.peer.name', 'peer.service',
      'db.query.summary', 'db.operation.name', 'db.operation', 'db.collection.name', 'db.sql.table',
      'db.mongodb.collection', 'db.query.text', 'db.statement', 'db.system.name', 'db.system',
      'db.namespace', 'db.name',
      'rpc.system', 'rpc.service', 'rpc.method',
      'messaging.system', 'messaging.operation.name', 'messaging.operation',
      'messaging.destination.temporary', 'messaging.destination.name', 'messaging.destination.template',
      'gen_ai.tool.name', 'ai.toolCall.name'
    ], k) AND v != '', SpanAttributes)) AS call_attributes
FROM otel_traces
WHERE Timestamp >= fromUnixTimestamp64Nano(window_start_ns)
  AND Timestamp <= fromUnixTimestamp64Nano(window_end_ns)
  AND (TraceId = {id:String} OR SpanAttributes['faultline.correlation_id'] = {id:String})
ORDER BY Timestamp
LIMIT 501
