-- The workflows of a range (dashboard_workflows, 540: a correlation id with a root request or an
-- outbound call) that one figure of the Workflows page counts, in one place for the list that opens
-- it (workflows_matching) and that list's total (workflows_matching_total):
--   failed: 1 the failed ones, 0 the ones that succeeded, -1 either;
--   steps: the workflows of exactly that many steps, -1 any;
--   first = 1: the failed workflows whose first failure (first_failure_class, _service, _source,
--     _code, as workflows_first_failure groups them) is exactly first_class, first_service,
--     first_source and first_code ('' included: a failed workflow with no failure recorded).
--   SELECT * FROM matching_workflows(from = '…', to = '…', service = '', failed = -1, steps = -1,
--     first = 0, first_class = '', first_service = '', first_source = '', first_code = '')
CREATE OR REPLACE VIEW matching_workflows AS
SELECT *
FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})
WHERE (roots > 0 OR steps > 0)
  AND ({failed:Int8} = -1 OR failed = ({failed:Int8} = 1))
  AND ({steps:Int32} = -1 OR steps = {steps:Int32})
  AND ({first:UInt8} = 0 OR (failed
    AND first_failure_class = {first_class:String}
    AND first_failure_service = {first_service:String}
    AND first_failure_source = {first_source:String}
    AND first_failure_code = {first_code:String}));
