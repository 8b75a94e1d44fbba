-- name: filter_options
-- description: Services and sources that made outbound calls in a time range (filter choices), from the calls_1m rollup.
SELECT
  arraySort(groupUniqArray(ServiceName)) AS services,
  arraySort(groupUniqArrayIf(source, source != '')) AS sources
FROM calls_1m
WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
  AND SpanKind != 'Server'
