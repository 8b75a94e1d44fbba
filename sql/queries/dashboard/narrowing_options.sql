-- name: narrowing_options
-- description: Choices for the code and endpoint filters: the 100 most frequent failure codes and failing span names (endpoints: 'POST /cart', 'GET', 'UPDATE') among the failure rows of [{from}, {to}) (failures, every row: a choice, not a count), for one service or all ('' = all). The versions come from service_versions.
SELECT
  arraySort(arrayFilter(c -> c != '', topK(100)(code))) AS codes,
  arraySort(arrayFilter(s -> s != '', topK(100)(SpanName))) AS endpoints
FROM failures
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND ({service:String} = '' OR ServiceName = {service:String})
