-- name: agent_failed_tool_calls
-- description: Failed tool calls of agents in [{from}, {to}) (tool_calls rows with a class), per service: whether the wrong-action burn rule has anything to judge. Cheap (the small tool_calls table, no judging), so the evaluator skips agents/agent_wrong_action_burn where no agent's tool failed. Empty service = all.
SELECT
  ServiceName AS service,
  sum(weight) AS failed_tool_calls
FROM tool_calls
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND role = 'tool' AND class != ''
  AND ({service:String} = '' OR ServiceName = {service:String})
GROUP BY service
ORDER BY service
