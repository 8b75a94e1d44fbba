-- name: workflows_first_failure
-- description: Which class (and source) is most often the first failure of a failed workflow.
SELECT
  if(first_failure_class = '', 'none recorded', first_failure_class) AS first_class,
  first_failure_source AS first_source,
  count() AS failed_workflows
FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
WHERE failed
GROUP BY first_class, first_source
ORDER BY failed_workflows DESC, first_class, first_source
