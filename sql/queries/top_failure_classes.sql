-- name: top_failure_classes
-- description: Failure classes ranked by count in a time window, with their share of all failures, the services and sources they hit, and how many were retryable. Empty service = all services.
SELECT
    class,
    count() AS failures,
    round(100 * count() / sum(count()) OVER (), 2) AS pct_of_failures,
    countIf(retryable) AS retryable,
    uniqExact(ServiceName) AS services,
    arraySort(groupUniqArray(source)) AS sources,
    max(Timestamp) AS last_seen
FROM failures
WHERE Timestamp >= {from:DateTime64(3)} AND Timestamp < {to:DateTime64(3)}
  AND ({service:String} = '' OR ServiceName = {service:String})
GROUP BY class
ORDER BY failures DESC, class
