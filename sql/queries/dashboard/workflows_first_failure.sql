-- name: workflows_first_failure
-- description: Where failed workflows first went wrong: the earliest first-hand failing call (or a server's own rejection) of each failed workflow, by service, class, source and code. The earliest is the one that ended first among failures not already known to be echoes: an echo ends after what it echoes.
SELECT
  if(first_failure_class = '', 'none recorded', first_failure_class) AS first_class,
  first_failure_service AS first_service,
  first_failure_source AS first_source,
  first_failure_code AS first_code,
  count() AS failed_workflows
FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
-- The failed workflows' keys first, from the cheap columns; then only those workflows' first
-- failure (a string the merge would otherwise carry for every workflow) is read (by primary key).
WHERE failed AND workflow_key IN (
  SELECT workflow_key
  FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
  WHERE failed
)
GROUP BY first_class, first_service, first_source, first_code
ORDER BY failed_workflows DESC, first_class, first_service, first_source, first_code
