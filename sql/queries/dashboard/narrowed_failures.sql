-- name: narrowed_failures
-- description: First-hand failures (narrowed_first_hand_failures, sql/schema/090: first_hand_failures under the filters below) per service, dependency, class, source and code under every filter a page can set, for the Overview, Failures and Dependencies when one narrows beyond service, source, class and dependency: failures, retryable ones, those of outbound calls (faultline_outbound_call: what Dependencies and the calls SLI count), first and last seen, the newest failure's span name, message (cut at 500 characters) and ids (correlation id, trace id, span id). Filters ('' = all): service, source, class, dependency and code matched exactly, a field listed in none (comma-separated: service, dependency, source, code) only where it is ''; outbound = 1 keeps outbound calls; counted = 'yes' keeps the classes counted against the budget, 'no' those left out (left_out, comma-separated: the caller-fault classes the page leaves out); endpoint the failing span's name exactly (the operation: 'POST /cart', 'GET', 'UPDATE'); q a case-insensitive substring of the message (the page caps it at 100 characters); version the service.version of the failing span's resource, read from otel_traces for the range's failing (service, span name) pairs only, and not at all when version is ''. Most failures first, at most {limit} rows.
SELECT
  service, dependency, class, source, code, failures, retryable_failures, outbound_failures,
  first_seen, last_seen, span, example_message,
  tupleElement(example, 1) AS example_correlation_id,
  tupleElement(example, 2) AS example_trace_id,
  tupleElement(example, 3) AS example_span_id
FROM (
  SELECT
    ServiceName AS service,
    dependency,
    class,
    source,
    code,
    sum(weight) AS failures,
    sumIf(weight, retryable) AS retryable_failures,
    sumIf(weight, faultline_outbound_call(SpanKind)) AS outbound_failures,
    toUnixTimestamp(min(Timestamp)) AS first_seen,
    toUnixTimestamp(max(Timestamp)) AS last_seen,
    argMax(SpanName, Timestamp) AS span,
    substringUTF8(argMax(message, Timestamp), 1, 500) AS example_message,
    -- One row's ids together: separate argMax calls could take them from two rows of the same instant.
    argMax((correlation_id, TraceId, SpanId), Timestamp) AS example
  FROM narrowed_first_hand_failures(from = {from:DateTime}, to = {to:DateTime}, service = {service:String},
      source = {source:String}, class = {class:String}, dependency = {dependency:String}, code = {code:String},
      none = {none:String}, outbound = {outbound:UInt16}, counted = {counted:String}, left_out = {left_out:String},
      endpoint = {endpoint:String}, q = {q:String}, version = {version:String})
  GROUP BY service, dependency, class, source, code
)
ORDER BY failures DESC, service, dependency, class, source, code
LIMIT {limit:UInt32}
