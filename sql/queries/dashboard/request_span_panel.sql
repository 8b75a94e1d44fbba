-- name: request_span_panel
-- description: The heavy columns of one span of a request, for the request page's side panel: every span attribute, every event (time, name, attributes) and every resource attribute, each as (key, value, full length) sorted by key. Bounded: the first 300 attributes, 100 events of 50 attributes each; keys cut to 200 characters, values to their first 8,000 (the page redacts those, then shows 2,000: redacting a longer head first keeps a secret cut at the edge from showing half of itself). Read only for the span selected, never for the whole tree; from/to (whole seconds around the span's start) keep the read to its part of otel_traces. The uncut values: span_detail.
SELECT
  toString(toUnixTimestamp64Nano(Timestamp)) AS start_ns,
  arrayMap(
    k -> (substringUTF8(k, 1, 200), substringUTF8(SpanAttributes[k], 1, 8000), lengthUTF8(SpanAttributes[k])),
    arraySlice(arraySort(mapKeys(SpanAttributes)), 1, 300)
  ) AS attributes,
  length(SpanAttributes) AS attribute_count,
  arrayMap(
    k -> (substringUTF8(k, 1, 200), substringUTF8(ResourceAttributes[k], 1, 8000), lengthUTF8(ResourceAttributes[k])),
    arraySlice(arraySort(mapKeys(ResourceAttributes)), 1, 300)
  ) AS resource,
  length(ResourceAttributes) AS resource_count,
  arrayMap(
    (t, n, a) -> (
      toString(toUnixTimestamp64Nano(t)),
      substringUTF8(n, 1, 500),
      arrayMap(k -> (substringUTF8(k, 1, 200), substringUTF8(a[k], 1, 8000), lengthUTF8(a[k])), arraySlice(arraySort(mapKeys(a)), 1, 50)),
      length(a)
    ),
    arraySlice(Events.Timestamp, 1, 100),
    arraySlice(Events.Name, 1, 100),
    arraySlice(Events.Attributes, 1, 100)
  ) AS events,
  length(Events.Name) AS event_count,
  substringUTF8(StatusMessage, 1, 8000) AS status_message,
  lengthUTF8(StatusMessage) AS status_message_length,
  ScopeName AS scope
FROM otel_traces
WHERE Timestamp >= {from:DateTime}
  AND Timestamp < {to:DateTime}
  AND TraceId = {trace_id:String}
  AND SpanId = {span_id:String}
LIMIT 1
