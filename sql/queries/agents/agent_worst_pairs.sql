-- name: agent_worst_pairs
-- description: Which agent, model and tool together go wrong most after a failed tool call, in [{from}, {to}): per (agent, model, tool) the failed calls, right and wrong next actions (agent_actions), compliance = right / (right + wrong), the class of most wrong actions and one trace to open; the most wrong first, then the lowest compliance, at most {limit} rows. Empty service = all.
SELECT
    agent,
    model,
    tool,
    sum(weight) AS failed_calls,
    sumIf(weight, verdict = 'right') AS right_actions,
    sumIf(weight, verdict = 'wrong') AS wrong_actions,
    if(right_actions + wrong_actions > 0, right_actions / (right_actions + wrong_actions), NULL) AS compliance,
    topKIf(1)(class, verdict = 'wrong')[1] AS worst_class,
    anyIf(TraceId, verdict = 'wrong') AS example_trace_id
FROM agent_actions(from = {from:DateTime}, to = {to:DateTime})
WHERE ({service:String} = '' OR ServiceName = {service:String})
GROUP BY agent, model, tool
HAVING wrong_actions > 0
ORDER BY wrong_actions DESC, compliance ASC, agent, model, tool
LIMIT {limit:UInt32}
