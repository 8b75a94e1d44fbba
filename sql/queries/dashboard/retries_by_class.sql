-- name: retries_by_class
-- description: Retries grouped by the class of the failure that triggered them (after_class of retry_rows, 525: the preload's faultline.previous_class on the retry; for older rows, the preceding row of the same trace, service and span name): how many, how many succeeded, the highest attempt, and the time spent waiting between the failed call's end and the retry's start. Each retry counts for what it stands for under trace sampling (weight). retries_listed lists the retries of one figure.
SELECT
  after_class,
  sum(weight) AS retries,
  sumIf(weight, class = '') AS succeeded,
  max(attempt) AS max_attempt,
  sum(waited_ns) AS wait_ns,
  sum(Duration) AS retry_duration_ns
FROM retry_rows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String}, source = {source:String})
GROUP BY after_class
ORDER BY retries DESC, after_class
