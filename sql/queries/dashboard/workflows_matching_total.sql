-- name: workflows_matching_total
-- description: How many workflows a figure of the Workflows page counts (matching_workflows, 545, with the filters workflows_matching lists them by): workflows is the sum of workflow_weight (what they stand for under trace sampling, as workflows_by_steps and workflows_first_failure count), stored how many rows that is. {sampled} is workflows_sampled's answer for {from}: where it is false no workflow of the range was sampled, every weight is 1 and none is read.
SELECT
  sum(if({sampled:Bool}, workflow_weight, 1.0)) AS workflows,
  count() AS stored
FROM matching_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String},
  failed = {failed:Int8}, steps = {steps:Int32}, first = {first:UInt8}, first_class = {first_class:String},
  first_service = {first_service:String}, first_source = {first_source:String}, first_code = {first_code:String})
