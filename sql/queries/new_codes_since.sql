-- name: new_codes_since
-- description: Failure codes (source × class × code) seen since a moment that did not occur in the baseline_days before it: what changed with the deploy.
SELECT
    source,
    class,
    code,
    sum(weight) AS failures,
    min(Timestamp) AS first_seen,
    arraySort(groupUniqArray(ServiceName)) AS services,
    any(message) AS example_message
FROM failures
WHERE Timestamp >= {since:DateTime64(3)}
  AND (source, class, code) NOT IN (
    SELECT source, class, code
    FROM failures
    WHERE Timestamp >= {since:DateTime64(3)} - toIntervalDay({baseline_days:UInt16})
      AND Timestamp < {since:DateTime64(3)}
  )
GROUP BY source, class, code
ORDER BY first_seen, source, class, code
