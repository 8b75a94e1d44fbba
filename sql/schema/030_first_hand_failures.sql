-- Each failure counted once, where it happened. A failure row is an echo (propagated) when a deeper
-- failure of the same request explains it:
--   * the preload saw a failure below it in its own process first (failures.propagated), or
--   * it is a CLIENT span whose callee's subtree holds a failure row, whatever the callee's server
--     span answered: a row whose caller_key (010) is the CLIENT span's own key. That is the
--     callee's SERVER span when it failed (its parent is the CLIENT span), or any failure row below
--     it in the callee's process, which the preload marks with the call it served
--     (faultline.caller_span_id: the remote parent of its local root), through handler and other
--     internal spans, under a server span that answered 2xx (a GraphQL errors body) or failed. A
--     chain across more services needs no walk: each service between holds a failure row of its
--     own, its failed call to the next, which names its caller in turn (a failure a service between
--     swallowed, answering its caller after a call that succeeded, stops there). A callee whose
--     subtree has no failure row refused the request on its own (a 4xx its server span did not
--     record as a failure): the caller's failure stays first-hand, a caller fault counted at the
--     caller. Spans of other SDKs carry no mark: below a server span that did not fail, their
--     failures do not reach the caller (it stays first-hand).
--   * it is a SERVER or INTERNAL span one of whose children failed (a call inside it failed).
--   * it is a step of a failed call: a CLIENT span under a failed CLIENT span that is no echo itself
--     (stock spans: a pool's connect under its checkout, an SDK's HTTP request under its operation;
--     the outer call holds the failure), or an INTERNAL span under a failed CLIENT span (a socket
--     connect, instrumentation-net). The preload decides these in process: a CLIENT span's CLIENT
--     children are its transport and never become failure rows (005), and a checkout whose connect
--     failed is marked propagated, so its connect stays first-hand.
-- Decided when read, not when written, because the spans of one trace arrive from several services
-- in any order: a callee's span that arrives late turns its caller's failure into an echo from then
-- on, and a callee that never reports (not instrumented, or lost) leaves the caller's failure
-- first-hand. Callees and children are looked up one hour either side of the range, so a failure
-- near its edge still finds them. A span is looked up by the 64-bit hash of its (trace, span) ids
-- (failures.span_key, parent_key and caller_key, 010, stored on insert): a set of numbers builds and
-- probes several times faster than one of string pairs; with a million failures in a range, the
-- chance that any two share a hash is about 3 in 100 million. The callee rule reads one stored
-- number per failure row, so it costs what the server-span rule it replaces did; reading the spans
-- between a caller and a failure from otel_traces instead would cost a pass over every span of the
-- range.
--   SELECT class, source, count() FROM first_hand_failures(from = '2026-01-31 09:00:00', to = '2026-01-31 10:00:00') GROUP BY ALL
-- The outbound calls' part on its own (faultline_outbound_call, 005: CLIENT and PRODUCER rows),
-- which the budget, the alerts and the Dependencies page read with no kind filter of their own: it
-- needs only the set of failure rows' callers, not the much larger set of every failed span's
-- parent that the SERVER/INTERNAL rule builds.
CREATE OR REPLACE VIEW first_hand_client_failures AS
SELECT *
FROM failures
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND faultline_outbound_call(SpanKind)
  AND NOT propagated
  AND NOT (SpanKind = 'Client' AND span_key IN (
      SELECT caller_key FROM failures
      WHERE Timestamp >= {from:DateTime} - INTERVAL 1 HOUR AND Timestamp < {to:DateTime} + INTERVAL 1 HOUR
        AND caller_key != 0))
  AND NOT (SpanKind = 'Client' AND parent_key IN (
      SELECT span_key FROM failures
      WHERE Timestamp >= {from:DateTime} - INTERVAL 1 HOUR AND Timestamp < {to:DateTime} + INTERVAL 1 HOUR
        AND SpanKind = 'Client' AND NOT propagated));

CREATE OR REPLACE VIEW first_hand_failures AS
SELECT *
FROM first_hand_client_failures(from = {from:DateTime}, to = {to:DateTime})
UNION ALL
SELECT *
FROM failures
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND NOT faultline_outbound_call(SpanKind)
  AND NOT propagated
  AND NOT (SpanKind IN ('Server', 'Internal') AND span_key IN (
      SELECT parent_key FROM failures
      WHERE Timestamp >= {from:DateTime} - INTERVAL 1 HOUR AND Timestamp < {to:DateTime} + INTERVAL 1 HOUR
        AND ParentSpanId != ''))
  AND NOT (SpanKind = 'Internal' AND parent_key IN (
      SELECT span_key FROM failures
      WHERE Timestamp >= {from:DateTime} - INTERVAL 1 HOUR AND Timestamp < {to:DateTime} + INTERVAL 1 HOUR
        AND SpanKind = 'Client'));
