-- Rules every materialized view applies to a span, defined once here. SQL user-defined functions
-- are global to the server (not per database), hence the faultline_ prefix; CREATE OR REPLACE so a
-- newer release's rule replaces an older one at start.

-- Older exporter releases write 'SPAN_KIND_CLIENT'; the dashboard reads the 'Client' form.
CREATE OR REPLACE FUNCTION faultline_span_kind AS (kind) ->
    if(startsWith(kind, 'SPAN_KIND_'), initcap(substring(kind, 11)), kind);

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
