-- name: retry_storms
-- description: Minutes in which a service retried a source at least min_retries times, with the failures and calls of that minute: retry amplification during an incident.
SELECT
    minute,
    ServiceName AS service,
    source,
    sum(retries) AS retries,
    sum(failures) AS failures,
    sum(calls) AS calls,
    round(retries / calls, 4) AS retry_share
FROM calls_1m
WHERE minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
GROUP BY minute, service, source
HAVING retries >= {min_retries:UInt32}
ORDER BY retries DESC, minute, service, source
LIMIT 500
