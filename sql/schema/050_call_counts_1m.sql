-- Exact counts of every logical call and failure, counted in process by the preload whatever the
-- trace sampler kept, and exported as OTLP delta sums (faultline.calls, faultline.failures: the
-- contract is instrumentation/src/envelope/count-metrics.ts) to the collector's /v1/metrics and
-- gRPC MetricsService, which writes one row per data point here. Where a service has rows for a
-- range, budgets, burn and alerts take its calls from here and the spans only explain them.
-- Reads must use sum() … GROUP BY: rows merge lazily.
CREATE TABLE IF NOT EXISTS call_counts_1m (
    minute DateTime CODEC(Delta(4), ZSTD(1)),
    ServiceName LowCardinality(String),
    SpanKind LowCardinality(String),
    source LowCardinality(String),
    dependency LowCardinality(String),
    class LowCardinality(String),
    code LowCardinality(String),
    entry Bool,
    propagated Bool,
    calls Float64,
    failures Float64
) ENGINE = SummingMergeTree((calls, failures))
PARTITION BY toYYYYMM(minute)
ORDER BY (ServiceName, SpanKind, source, dependency, class, code, entry, propagated, minute)
SETTINGS ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

-- A service's minute as one number (cityHash64 of the service's own hash and the minute's index):
-- the budgets look a stored row's minute up in exact_count_minutes by it (a set of numbers probes
-- faster than one of tuples).
CREATE OR REPLACE FUNCTION faultline_minute_key AS (service_key, t) ->
    cityHash64(service_key, intDiv(toUnixTimestamp(t), 60));

-- The minutes the preload counted in process, as faultline_minute_keys, for the budgets to leave
-- those minutes' stored spans to the exact count (budget_calls, budget_requests): entry = 1 for the
-- entry requests (root SERVER calls), 0 for the outbound calls, narrowed by service and source
-- ('' = all). A minute is counted exactly when it has exact rows, or the next minute has: a count is
-- filed under the minute its export ended in, so a minute's last seconds (all of them for a process
-- that started then) arrive with the next one.
--   SELECT count() FROM exact_count_minutes(from = '…', to = '…', entry = 0, service = '', source = '')
CREATE OR REPLACE VIEW exact_count_minutes AS
SELECT arrayJoin([
    faultline_minute_key(cityHash64(ServiceName), minute),
    faultline_minute_key(cityHash64(ServiceName), minute - INTERVAL 1 MINUTE)]) AS minute_key
FROM call_counts_1m
WHERE minute >= toStartOfMinute({from:DateTime}) AND minute < {to:DateTime}
  AND calls > 0
  AND if({entry:UInt8} = 1, entry AND SpanKind = 'Server', faultline_outbound_call(SpanKind))
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String});
