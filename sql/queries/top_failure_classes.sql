-- name: top_failure_classes
-- description: Failure classes ranked by first-hand failures in a time window (each failure counted once, where it happened: first_hand_failures), with their share, the services and sources they hit, how many were retryable, and the echoes (propagated failures) they caused beside. Empty service = all services.
WITH echoes AS (
    SELECT class, sum(weight) AS n
    FROM failures
    WHERE Timestamp >= {from:DateTime64(3)} AND Timestamp < {to:DateTime64(3)}
      AND ({service:String} = '' OR ServiceName = {service:String})
    GROUP BY class
)
SELECT
    f.class AS class,
    sum(f.weight) AS failures,
    round(100 * failures / sum(sum(f.weight)) OVER (), 2) AS pct_of_failures,
    sumIf(f.weight, f.retryable) AS retryable,
    uniqExact(f.ServiceName) AS services,
    arraySort(groupUniqArray(f.source)) AS sources,
    any(e.n) - failures AS propagated,
    max(f.Timestamp) AS last_seen
FROM first_hand_failures(from = toDateTime({from:DateTime64(3)}), to = toDateTime({to:DateTime64(3)})) AS f
LEFT JOIN echoes AS e ON e.class = f.class
WHERE f.Timestamp >= {from:DateTime64(3)}
  AND ({service:String} = '' OR f.ServiceName = {service:String})
GROUP BY class
ORDER BY failures DESC, class
