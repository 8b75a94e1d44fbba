-- name: workflows_matching
-- description: The newest workflows a figure of the Workflows page counts (matching_workflows, 545: failed = 1|0|-1, steps = n|-1, first = 1 with first_class, first_service, first_source and first_code matched exactly), at most {limit}, newest first, with what each stands for under trace sampling (workflow_weight). {sampled} is workflows_sampled's answer for {from}: where it is false no workflow of the range was sampled, every weight is 1 and none is read. workflows_matching_total gives how many match.
SELECT
  correlation_id,
  toUnixTimestamp(started) AS started,
  duration_ns,
  services,
  steps,
  failed_steps,
  retries,
  misrouted,
  failed,
  first_failure_class,
  first_failure_source,
  first_failure_code,
  first_failure_service,
  if({sampled:Bool}, workflow_weight, 1.0) AS workflow_weight
FROM matching_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String},
  failed = {failed:Int8}, steps = {steps:Int32}, first = {first:UInt8}, first_class = {first_class:String},
  first_service = {first_service:String}, first_source = {first_source:String}, first_code = {first_code:String})
ORDER BY started DESC, correlation_id
LIMIT {limit:UInt32}
