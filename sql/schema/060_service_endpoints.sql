-- Dependencies and the service map (issue 30): an edge is stored under what its caller dialed
-- (faultline_call_dependency, 006: 127.0.0.1:37701, inventory:8080), and the page names the service
-- that answered there. Each service's SERVER spans say where they were reached (the Host header:
-- server.address / server.port, http.host, net.host.name / net.host.port; or the RPC served), written here per hour as
-- they arrive, so the page joins a few rows per endpoint instead of pairing CLIENT and SERVER spans
-- of the range at read time (which cost the Dependencies panel 2.4× its time at 1M spans). A name
-- the caller and the callee spell differently (localhost and 127.0.0.1) does not meet: the edge
-- keeps its dialed name.

-- Where a SERVER span was reached, spelled as faultline_dependency (006) spells the caller's side:
-- the RPC it served (rpc.service/rpc.method, what a gRPC client's edge is named) and the host[:port]
-- it was reached at (default ports 80 and 443 left out); none when the span says nothing of either.
CREATE OR REPLACE FUNCTION faultline_served_endpoints AS (attrs) -> arrayFilter(e -> e != '', [
    if(attrs['rpc.service'] != '',
        substringUTF8(concat(attrs['rpc.service'], if(attrs['rpc.method'] != '', concat('/', attrs['rpc.method']), '')), 1, 200),
        ''),
    substringUTF8(multiIf(
        attrs['server.address'] != '',
            concat(attrs['server.address'],
                if(attrs['server.port'] NOT IN ('', '80', '443'), concat(':', attrs['server.port']), '')),
        attrs['http.host'] != '',
            replaceRegexpOne(attrs['http.host'], ':(80|443)$', ''),
        attrs['net.host.name'] != '',
            concat(attrs['net.host.name'],
                if(attrs['net.host.port'] NOT IN ('', '80', '443'), concat(':', attrs['net.host.port']), '')),
        ''), 1, 200)]);

-- The endpoint part of a stored dependency: what precedes the URL template (006 appends
-- ' <url.template>' to an HTTP dependency). A database or queue dependency never matches one.
CREATE OR REPLACE FUNCTION faultline_dependency_endpoint AS (dependency) ->
    splitByChar(' ', dependency)[1];

CREATE TABLE IF NOT EXISTS service_endpoints (
    hour DateTime CODEC(Delta(4), ZSTD(1)),
    endpoint String,
    ServiceName LowCardinality(String),
    spans SimpleAggregateFunction(sum, UInt64),
    -- The requests those spans stand for (faultline_span_weight, 005): above spans where the
    -- callee samples, so the page can say that a call's missing callee span may be sampled out.
    requests SimpleAggregateFunction(sum, Float64),
    last_seen SimpleAggregateFunction(max, DateTime64(9))
) ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(hour)
ORDER BY (endpoint, hour, ServiceName)
SETTINGS ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

CREATE MATERIALIZED VIEW IF NOT EXISTS service_endpoints_mv TO service_endpoints AS
SELECT
    toStartOfHour(Timestamp) AS hour,
    endpoint,
    ServiceName,
    count() AS spans,
    sum(faultline_span_weight(TraceState, SpanAttributes)) AS requests,
    max(Timestamp) AS last_seen
FROM otel_traces
ARRAY JOIN faultline_served_endpoints(SpanAttributes) AS endpoint
WHERE faultline_span_kind(otel_traces.SpanKind) = 'Server'
  AND ServiceName != ''
GROUP BY hour, endpoint, ServiceName;

-- Who answered at each endpoint in a time range, for the Dependencies page and the request tree:
--   SELECT * FROM endpoint_callees(from = '2026-12-05 09:00:00', to = '2026-12-05 10:00:00')
-- The service seen there last in the range wins (a port reused by another service);
-- callee_unsampled is the share of its requests there that its sampling dropped (from the weights
-- of the spans it kept; 0 when it keeps all): a failed call whose callee span is missing may be a
-- sampled-out echo of the callee's own failure, which the first-hand rule cannot see.
CREATE OR REPLACE VIEW endpoint_callees AS
SELECT
    endpoint,
    argMax(ServiceName, (last, spans)) AS callee,
    argMax(if(requests > spans, 1 - spans / requests, 0), (last, spans)) AS callee_unsampled
FROM (
    SELECT endpoint, ServiceName, max(last_seen) AS last, sum(spans) AS spans, sum(requests) AS requests
    FROM service_endpoints
    WHERE hour >= toStartOfHour({from:DateTime}) AND hour < {to:DateTime}
    GROUP BY endpoint, ServiceName
)
GROUP BY endpoint;
