-- name: filter_options
-- description: Services and sources that made outbound calls in a time range, and the dependencies they called (filter choices), from the calls_1m and dependency_calls_1m rollups.
SELECT
  arraySort(groupUniqArray(ServiceName)) AS services,
  arraySort(groupUniqArrayIf(source, source != '')) AS sources,
  (SELECT arraySort(groupUniqArray(500)(dependency)) FROM dependency_calls_1m
   WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
     AND faultline_outbound_call(SpanKind) AND dependency != '') AS dependencies
FROM calls_1m
WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
  AND SpanKind != 'Server'
