-- The counting rules, each defined once here and used by every materialized view, view and named
-- query that applies it (a rule with a TypeScript twin has a parity test: sql/test/counting). SQL
-- user-defined functions are global to the server (not per database), hence the faultline_ prefix;
-- CREATE OR REPLACE so a newer release's rule replaces an older one. ClickHouse inlines a function
-- into a view when the view is created, so a changed rule reaches the views only when they are
-- created again: the migrator does that, and rebuilds the rollups they fill (src/migrate/).

-- Older exporter releases write 'SPAN_KIND_CLIENT'; the dashboard reads the 'Client' form.
CREATE OR REPLACE FUNCTION faultline_span_kind AS (kind) ->
    if(startsWith(kind, 'SPAN_KIND_'), initcap(substring(kind, 11)), kind);

-- An outbound call: a CLIENT or PRODUCER span, in either spelling of the kind (what
-- faultline_span_kind reads as 'Client' or 'Producer'). The budget, the alerts and the Dependencies
-- page count these; first_hand_client_failures (030) is their failures. A plain IN, not
-- faultline_span_kind(kind) IN (…): on a LowCardinality column it is decided once per distinct
-- value, and the tables that store a kind store it normalized already.
CREATE OR REPLACE FUNCTION faultline_outbound_call AS (kind) ->
    kind IN ('Client', 'Producer', 'SPAN_KIND_CLIENT', 'SPAN_KIND_PRODUCER');

-- A span that is one tool call of an agent: GenAI execute_tool (an MCP client's tools/call too) or
-- the AI SDK's ai.toolCall. A span below a tool call carries faultline.tool but is not one. With the
-- agent rules of 007 (its twin: isToolCall), here because faultline_source below reads it.
CREATE OR REPLACE FUNCTION faultline_is_tool_call AS (attrs) ->
    attrs['gen_ai.operation.name'] = 'execute_tool' OR attrs['ai.toolCall.name'] != '';

-- The source a span's semantic-convention attributes imply: the twin of sourceOf in
-- @faultline/instrumentation, which the preload counts a call under and the collector files an
-- unclassified failure under (parity: sql/test/counting/source-parity.test.ts); '' where it says
-- none. The AWS SDK before the database check (a DynamoDB span carries db.system too, yet its
-- failures are the SDK's); rpc.system.name (the newer RPC conventions) before rpc.system; a broker
-- client by messaging.system; HTTP by its method; each attribute by presence, as the TypeScript
-- rule reads it.
CREATE OR REPLACE FUNCTION faultline_semconv_source AS (attrs) -> multiIf(
    if(mapContains(attrs, 'rpc.system.name'), attrs['rpc.system.name'], attrs['rpc.system']) = 'aws-api', 'sdk',
    mapContains(attrs, 'db.system.name') OR mapContains(attrs, 'db.system'), 'db',
    mapContains(attrs, 'rpc.system.name') OR mapContains(attrs, 'rpc.system'), 'rpc',
    mapContains(attrs, 'messaging.system'), 'messaging',
    mapContains(attrs, 'http.request.method') OR mapContains(attrs, 'http.method'), 'http',
    '');

-- The source a span is counted and filed under: the envelope's (faultline.source, which the preload
-- and the collector's ingest classification write), else what its attributes imply. Successes and
-- failures of one call land under the same source: so an agent's tool call is always `tool`, even
-- when its failure's envelope names what failed beneath it (an MCP isError result stating
-- "HTTP 429" is classified as an http 429), and though its successes imply none (an MCP
-- tools/call span carries no HTTP, database or RPC attribute).
CREATE OR REPLACE FUNCTION faultline_source AS (attrs) -> multiIf(
    faultline_is_tool_call(attrs), 'tool',
    attrs['faultline.source'] != '', attrs['faultline.source'],
    faultline_semconv_source(attrs));

-- A span that failed: a classified envelope, or an Error status on a span nobody classified.
CREATE OR REPLACE FUNCTION faultline_failed AS (attrs, status) ->
    attrs['faultline.class'] != '' OR status IN ('Error', 'STATUS_CODE_ERROR');

-- What a span is to the budget. '' is a logical call (or a server span): counted. 'transport' is a
-- request inside another client span of the same operation (an SDK's HTTP request, a driver's
-- round trip): part of its parent, neither a call nor a failure of its own. 'checkout' is a pool
-- checkout or a connect that succeeded: not a call. The preload says which (faultline.call_role);
-- for spans of other SDKs the known checkout and connect span names of the Node.js
-- instrumentations stand in when the span succeeded (a failed connect is a call that failed).
CREATE OR REPLACE FUNCTION faultline_call_role AS (name, attrs, status) -> multiIf(
    attrs['faultline.call_role'] != '', attrs['faultline.call_role'],
    attrs['faultline.class'] = '' AND status NOT IN ('Error', 'STATUS_CODE_ERROR')
        AND (mapContains(attrs, 'db.system') OR mapContains(attrs, 'db.system.name'))
        AND name IN ('pg-pool.connect', 'pg.connect', 'connect', 'redis-connect', 'mysql.connect'), 'checkout',
    '');

-- The attempt number of a span's last attempt: the preload's faultline.attempt (an identical repeat
-- of a failed call), an SDK's own retries (faultline.attempts), or an instrumentation's
-- http.request.resend_count; 1 when none says otherwise.
CREATE OR REPLACE FUNCTION faultline_final_attempt AS (attrs) -> toUInt16(greatest(
    toUInt16OrZero(attrs['faultline.attempt']),
    toUInt16OrZero(attrs['faultline.attempts']),
    toUInt16OrZero(attrs['http.request.resend_count']) + 1,
    1));

-- The attempts an SDK made inside one operation span (faultline.attempts = N: it retried
-- internally; N - 1 earlier attempts failed), capped at 100; 0 when it says nothing.
CREATE OR REPLACE FUNCTION faultline_sdk_attempts AS (attrs) ->
    toUInt64(least(toUInt16OrZero(attrs['faultline.attempts']), 100));

-- Whether the minute rollups (calls_1m, dependency_calls_1m) count a span as a call: a CLIENT or
-- SERVER span, or any span the preload tagged with a source, unless it is part of another call
-- (faultline_call_role: a transport request, a successful checkout).
CREATE OR REPLACE FUNCTION faultline_counted_call AS (name, kind, attrs, status) ->
    (attrs['faultline.source'] != '' OR kind IN ('Client', 'Server', 'SPAN_KIND_CLIENT', 'SPAN_KIND_SERVER'))
    AND faultline_call_role(name, attrs, status) = '';

-- Whether a failure row is an echo the preload saw in its own process (failures.propagated): a
-- failure below the span came first. The other half of first-hand (an echo across services) is
-- decided at read time from the trace's links (first_hand_failures, 030).
CREATE OR REPLACE FUNCTION faultline_propagated AS (attrs) ->
    attrs['faultline.propagated'] = 'true';

-- A span's weight under probability sampling: the adjusted count 1/p from the rejection threshold
-- `th` of the `ot` member of its W3C tracestate (OpenTelemetry, "TraceState: Probability
-- Sampling"): 1-14 hex digits, trailing zeros dropped, T = the digits padded to 14, p = (2^56 - T)
-- / 2^56; th:0 is 1. No th, or a malformed one, is weight 1 (the mark function tells them apart).
-- The twin of samplingWeightOf in @faultline/instrumentation (parity:
-- sql/test/counting/sampling-weight-parity.test.ts).
CREATE OR REPLACE FUNCTION faultline_sample_th AS (trace_state) ->
    extract(trace_state, '(?:^|,)[ \t]*ot=(?:[^,]*;)?th:([^;,]*)');

CREATE OR REPLACE FUNCTION faultline_sample_mark AS (trace_state) -> multiIf(
    NOT match(trace_state, '(?:^|,)[ \t]*ot=(?:[^,]*;)?th:'), 'none',
    match(faultline_sample_th(trace_state), '^[0-9a-f]{1,14}$'), 'valid',
    'invalid');

-- 2^56 - T is taken in whole numbers, then divided: T near 2^56 (th:fffffffffffffc to
-- th:ffffffffffffff, probabilities of 2^-56 to 2^-54) rounds to 2^56 as a double, and the weight
-- would be infinite, which no count can hold (an insert carrying it failed). The weight is then at
-- most 2^56.
-- One extract, no match of its own: every stored span is weighed on insert, and a th that is not
-- 1-14 hex digits (none extracts as '') is weight 1 either way. A tracestate without 'th:' (most
-- spans: no tracestate at all) is weight 1 before any regular expression runs: `if` evaluates the
-- extract only for the rows that reach it (short-circuit evaluation), and every view weighs each
-- span of an insert.
CREATE OR REPLACE FUNCTION faultline_sample_weight AS (trace_state) ->
    if(position(trace_state, 'th:') = 0, 1.0,
       if(match(faultline_sample_th(trace_state), '^[0-9a-f]{1,14}$'),
          exp2(56) / toFloat64(bitShiftLeft(toUInt64(1), 56)
              - reinterpretAsUInt64(reverse(unhex(rightPad(faultline_sample_th(trace_state), 14, '0'))))),
          1.0));

-- The weight every count sums (failures.weight, the minute rollups, the workflows' requests): the
-- span's sampling weight, except a span the preload exported only to explain a kept failure of an
-- unsampled trace (faultline.sampling.kept = 'path'), which stands for no traffic: 0. A failure the
-- preload kept carries th:0 (weight 1) in sampled and unsampled traces alike, so failures count
-- exactly and successes keep 1/p. The twin of spanWeightOf in @faultline/instrumentation.
CREATE OR REPLACE FUNCTION faultline_span_weight AS (trace_state, attrs) ->
    if(attrs['faultline.sampling.kept'] = 'path', 0.0, faultline_sample_weight(trace_state));

-- The most a weight counts for where it must be a whole number or a fixed point (the latency
-- digest, 040; the workflows' packed_requests, 530): 2^40, 10^12 requests. A th of a probability
-- under 2^-40 is hostile or broken input, not a sampler; 2^56, the largest weight, would overflow.
CREATE OR REPLACE FUNCTION faultline_weight_cap AS () -> 1099511627776.;

-- A span's part of the variance of a weighted count (Horvitz-Thompson, each span kept independently
-- with probability 1/w): w(w - 1); 0 for a span counted exactly. Summed beside the counts, it gives
-- the panels' "±x% at 95%" (1.96 × sqrt(variance) / count).
CREATE OR REPLACE FUNCTION faultline_weight_variance AS (weight) -> weight * (weight - 1.0);

-- The variance of `roots` requests weighing `weight` together (a workflow's root requests, or one
-- rollup row's): each root taken at their mean weight. 0 for no root.
CREATE OR REPLACE FUNCTION faultline_roots_variance AS (roots, weight) ->
    if(roots > 0, roots * faultline_weight_variance(weight / roots), 0.0);
