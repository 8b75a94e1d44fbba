-- The first-hand failures (first_hand_failures, 030) under every filter a page can set, in one
-- place for the panels that narrow beyond service, source, class and dependency (narrowed_failures
-- and narrowed_timeline in sql/queries/dashboard, which describe each filter):
--   SELECT * FROM narrowed_first_hand_failures(from = '…', to = '…', service = '', source = '',
--     class = '', dependency = '', code = '', none = '', outbound = 0, counted = '', left_out = '',
--     endpoint = '', q = '', version = '')
-- The version is read from otel_traces for the range's failing (service, span name) pairs only, and
-- not at all when version is ''.
CREATE OR REPLACE VIEW narrowed_first_hand_failures AS
SELECT *
FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
WHERE (({service:String} = '' AND NOT has(splitByChar(',', {none:String}), 'service')) OR ServiceName = {service:String})
  AND (({source:String} = '' AND NOT has(splitByChar(',', {none:String}), 'source')) OR source = {source:String})
  AND ({class:String} = '' OR class = {class:String})
  AND (({dependency:String} = '' AND NOT has(splitByChar(',', {none:String}), 'dependency')) OR dependency = {dependency:String})
  AND (({code:String} = '' AND NOT has(splitByChar(',', {none:String}), 'code')) OR code = {code:String})
  AND ({outbound:UInt16} = 0 OR faultline_outbound_call(SpanKind))
  AND ({counted:String} = '' OR has(splitByChar(',', {left_out:String}), class) = ({counted:String} = 'no'))
  AND ({endpoint:String} = '' OR SpanName = {endpoint:String})
  AND ({q:String} = '' OR positionCaseInsensitiveUTF8(message, {q:String}) > 0)
  AND ({version:String} = '' OR cityHash64(TraceId, SpanId) IN (
    SELECT cityHash64(TraceId, SpanId)
    FROM otel_traces
    WHERE {version:String} != ''
      AND Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
      AND (ServiceName, SpanName) IN (
        SELECT ServiceName, SpanName FROM failures WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime})
      AND ResourceAttributes['service.version'] = {version:String}));
